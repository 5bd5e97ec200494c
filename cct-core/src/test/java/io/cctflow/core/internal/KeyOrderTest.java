package io.cctflow.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class KeyOrderTest {
    /**
     * Random keys (fewer and more than {@link KeyOrder#RADIX_FROM}: both sorts) against a brute-force reference (boxed positions sorted by key, then position):
     * full-range keys (signs mixed), keys that share their high 40 bits in a few groups (so the runs
     * the packed sort leaves in position order must be sorted by the low bits), and repeated keys.
     */
    @Property(tries = 300)
    void ascendingEqualsSortingPositionsByKeyThenPosition(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 3000) int n, @ForAll @IntRange(min = 0, max = 2) int kind) {
        Random random = new Random(seed);
        long[] highs = {random.nextLong(), random.nextLong(), Long.MIN_VALUE, -1L << 24, 0};
        long[] keys = new long[n + 3];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = switch (kind) {
                case 0 -> random.nextLong();
                case 1 -> (highs[random.nextInt(highs.length)] & ~0xFFFFFFL) | random.nextInt(1 << 24);
                default -> random.nextInt(7) - 3;
            };
        }

        Integer[] reference = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(reference, Comparator.<Integer>comparingLong(p -> keys[p]).thenComparing(p -> p));
        assertThat(KeyOrder.ascending(keys, n)).containsExactly(Arrays.stream(reference).mapToInt(Integer::intValue)
                .toArray());
    }
}
