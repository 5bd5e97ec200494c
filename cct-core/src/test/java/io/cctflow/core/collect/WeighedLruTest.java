package io.cctflow.core.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** {@link WeighedLru} against a brute-force model (a list in use order) on random gets and puts. */
class WeighedLruTest {
    @Property(tries = 300)
    void holdsWhatTheModelHoldsWithinItsCapacity(@ForAll long seed, @ForAll @IntRange(min = 0, max = 40) int capacity) {
        Random random = new Random(seed);
        WeighedLru<Integer, String> lru = new WeighedLru<>(capacity);
        List<Object[]> model = new ArrayList<>(); // {key, value, weight}, least recently used first
        for (int op = 0; op < 200; op++) {
            int key = random.nextInt(12);
            int at = indexOf(model, key);
            if (random.nextBoolean()) {
                String got = lru.get(key);
                if (at < 0) {
                    assertThat(got).isNull();
                } else {
                    assertThat(got).isEqualTo(model.get(at)[1]);
                    model.add(model.remove(at));
                }
            } else {
                long weight = random.nextInt(15);
                String value = "v" + op;
                lru.put(key, value, weight);
                if (weight <= capacity) {
                    if (at >= 0) {
                        model.remove(at);
                    }
                    model.add(new Object[] {key, value, weight});
                    while (sum(model) > capacity) {
                        model.remove(0);
                    }
                }
            }
            assertThat(lru.size()).isEqualTo(model.size());
            assertThat(lru.weight()).isEqualTo(sum(model)).isLessThanOrEqualTo(capacity);
        }
    }

    private static int indexOf(List<Object[]> model, int key) {
        for (int i = 0; i < model.size(); i++) {
            if ((Integer) model.get(i)[0] == key) {
                return i;
            }
        }
        return -1;
    }

    private static long sum(List<Object[]> model) {
        long s = 0;
        for (Object[] e : model) {
            s += (Long) e[2];
        }
        return s;
    }
}
