package io.cctflow.core.collect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link LongIntMap} against a {@code HashMap} on random puts, gets and clears, through its growth;
 * and at the edges of its slots (a free slot is marked by value -1, so negative values are refused):
 * key 0, the extreme keys, values 0 to {@code Integer.MAX_VALUE}.
 */
class LongIntMapTest {
    @Property(tries = 300)
    void holdsWhatAHashMapHolds(@ForAll long seed, @ForAll @IntRange(min = 1, max = 64) int expected,
            @ForAll @IntRange(min = 1, max = 400) int keySpace) {
        Random random = new Random(seed);
        LongIntMap map = new LongIntMap(expected);
        Map<Long, Integer> model = new HashMap<>();
        for (int op = 0; op < 1_000; op++) {
            // keys spread over the whole long range and clustered, both
            long key = random.nextBoolean() ? random.nextInt(keySpace) : random.nextInt(keySpace) * 0x9E37_79B9_7F4A_7C15L;
            int choice = random.nextInt(100);
            if (choice < 45) {
                int value = random.nextInt(1_000);
                map.put(key, value);
                model.put(key, value);
            } else if (choice < 99) {
                assertThat(map.get(key)).isEqualTo(model.getOrDefault(key, -1));
            } else {
                map.clear();
                model.clear();
            }
            assertThat(map.size()).isEqualTo(model.size());
        }
        for (Map.Entry<Long, Integer> e : model.entrySet()) {
            assertThat(map.get(e.getKey())).isEqualTo(e.getValue());
        }
    }

    @Property(tries = 200)
    void holdsExtremeKeysAndValues(@ForAll long seed, @ForAll @IntRange(min = 1, max = 16) int expected) {
        Random random = new Random(seed);
        long[] keys = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1,
            random.nextLong(), random.nextLong()};
        LongIntMap map = new LongIntMap(expected);
        Map<Long, Integer> model = new HashMap<>();
        for (int op = 0; op < 200; op++) {
            long key = random.nextInt(4) == 0 ? random.nextLong() : keys[random.nextInt(keys.length)];
            int value = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> Integer.MAX_VALUE;
                case 2 -> Integer.MAX_VALUE - random.nextInt(3);
                default -> random.nextInt(Integer.MAX_VALUE);
            };
            map.put(key, value);
            model.put(key, value);
            for (long k : keys) {
                assertThat(map.get(k)).isEqualTo(model.getOrDefault(k, -1));
            }
            assertThat(map.size()).isEqualTo(model.size());
        }
    }

    @Property(tries = 20)
    void refusesNegativeValues(@ForAll long key, @ForAll @IntRange(min = Integer.MIN_VALUE, max = -1) int value) {
        LongIntMap map = new LongIntMap(4);
        assertThatThrownBy(() -> map.put(key, value))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(map.size()).isZero();
        assertThat(map.get(key)).isEqualTo(-1);
    }
}
