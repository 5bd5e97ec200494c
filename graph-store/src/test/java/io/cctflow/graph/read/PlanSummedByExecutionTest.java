package io.cctflow.graph.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.RandomTrees;
import io.cctflow.graph.maintenance.Rollups;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** {@link RangePlanner.Plan#readSummedByExecution} against the whole windows of {@link RangePlanner.Plan#read}. */
class PlanSummedByExecutionTest extends CleanGraph {
    private static final long HOUR = Resolution.HOUR.millis();
    private static final long T0 = 1_700_006_400_000L; // a UTC midnight
    private static final long WINDOW = 5 * 60_000L;

    @Test
    void summedByExecutionEqualsTheWholeWindowsSummedPerExecution() {
        List<String> keys = List.of(new ExecutionId("svc", "v1", "a").key(), new ExecutionId("svc", "v1", "b").key(),
                new ExecutionId("svc", "v2", "c").key());
        Random random = new Random(31);
        List<WindowCounts> fine = new ArrayList<>();
        for (String key : keys) {
            ExecutionId e = ExecutionId.fromKey(key);
            writer.writeInstances(List.of(new InstanceRecord(e.service(), e.version(), e.instance(), "h", 1, T0,
                    Map.of(), T0, T0 + 5 * HOUR)));
            for (long start = T0; start < T0 + 5 * HOUR; start += WINDOW) {
                if (random.nextInt(6) > 0) {
                    Cct tree = RandomTrees.tree(random, 1 + random.nextInt(6));
                    writeTopology(tree);
                    fine.add(new WindowCounts(key, start, start + WINDOW, RandomTrees.counts(tree)));
                }
            }
        }
        writer.writeWindowCounts(fine);
        new Rollups(driver, "", Duration.ofMinutes(10)).rollUp(T0 + 4 * HOUR); // hours 0-2 rolled up, the rest fine
        List<List<String>> selections = List.of(keys, keys.subList(0, 2), keys.subList(1, 3), keys.subList(0, 1));
        for (int i = 0; i < 20; i++) {
            long from = T0 - HOUR + random.nextLong(6 * HOUR);
            long to = from + 1 + random.nextLong(5 * HOUR);
            for (List<String> selection : selections) {
                RangePlanner.Plan plan = windows.plan(selection, from, to);
                Map<String, TreeCounts> expected = new TreeMap<>();
                for (WindowCounts w : plan.read()) {
                    expected.merge(w.executionKey(), w.counts(), TreeCounts::plus);
                }
                Map<String, TreeCounts> summed = new TreeMap<>();
                for (WindowCounts w : plan.readSummedByExecution()) {
                    assertThat(summed.put(w.executionKey(), w.counts())).as("one row per execution").isNull();
                }
                String what = String.format("[%d, %d) min of %s", (from - T0) / 60_000, (to - T0) / 60_000, selection);
                assertThat(summed).as(what).isEqualTo(expected);
                assertThat(plan.executions()).as(what).isEqualTo(expected.size());
            }
        }
    }
}
