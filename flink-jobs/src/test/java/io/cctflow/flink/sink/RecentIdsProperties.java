package io.cctflow.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/**
 * Brute force over random add/lookup sequences: {@link RecentIds} never claims an id that was not
 * added, and always knows an id after whose last add fewer than {@code capacity} distinct other
 * ids were added.
 */
class RecentIdsProperties {

    @Property(tries = 300)
    void remembersRecentIdsAndInventsNone(@ForAll @IntRange(min = 0, max = 12) int capacity,
            @ForAll @Size(max = 200) List<@LongRange(min = -20, max = 40) Long> adds) {
        RecentIds ids = new RecentIds(capacity);
        List<Long> history = new ArrayList<>();
        for (long id : adds) {
            ids.add(id);
            history.add(id);
            for (long probe = -21; probe <= 41; probe++) {
                boolean claimed = ids.contains(probe);
                if (!history.contains(probe)) {
                    assertThat(claimed).as("never added: %d", probe).isFalse();
                } else if (distinctAfterLastAdd(history, probe) < capacity) {
                    assertThat(claimed).as("%d, %d distinct ids after it, capacity %d in %s", probe,
                            distinctAfterLastAdd(history, probe), capacity, history).isTrue();
                }
            }
        }
    }

    private static int distinctAfterLastAdd(List<Long> history, long id) {
        Set<Long> after = new HashSet<>();
        for (int i = history.size() - 1; history.get(i) != id; i--) {
            after.add(history.get(i));
        }
        return after.size();
    }
}
