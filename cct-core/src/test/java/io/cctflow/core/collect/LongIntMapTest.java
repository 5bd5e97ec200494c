package io.cctflow.core.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** {@link LongIntMap} against a {@code HashMap} on random puts, gets and clears, through its growth. */
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
}
