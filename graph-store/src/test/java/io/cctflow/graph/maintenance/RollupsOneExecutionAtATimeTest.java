package io.cctflow.graph.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.Keys;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.Resolution;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The roll-up pass, one execution at a time (issue 30, item 6), writes what the earlier pass wrote
 * from all of an hour's fine windows at once: the reference below is that all-at-once computation
 * (group every fine window of a slot by execution, or by deployment, and sum), over many executions
 * of several deployments, on the real Neo4j.
 */
class RollupsOneExecutionAtATimeTest extends CleanGraph {
    private static final long HOUR = Resolution.HOUR.millis();
    private static final long DAY = Resolution.DAY.millis();
    private static final long T0 = 1_700_006_400_000L; // a UTC midnight
    private static final long WINDOW = 10 * 60_000L;
    private static final long FROM = T0 + 21 * HOUR;
    private static final long TO = T0 + DAY + 2 * HOUR;

    @Test
    void rollUpsOverManyExecutionsEqualTheAllAtOnceSums() {
        Random random = new Random(60);
        List<String> executions = new ArrayList<>();
        for (int i = 0; i < 36; i++) {
            executions.add(new ExecutionId(i % 5 == 0 ? "other" : "svc", "v" + (i % 3), "i" + i).key());
        }
        assertRollUpsEqualAllAtOnce(executions, random);
    }

    /**
     * A deployment of more executions than the pass writes per batch ({@link RollupWrites#BATCH}),
     * not a multiple of it: full batches, a partial one, and the read-ahead over all of them.
     */
    @Test
    void rollUpsOfADeploymentLargerThanAWriteBatchEqualTheAllAtOnceSums() {
        Random random = new Random(61);
        List<String> executions = new ArrayList<>();
        for (int i = 0; i < 2 * RollupWrites.BATCH + 5; i++) {
            executions.add(new ExecutionId("svc", "v1", "i" + i).key());
        }
        assertRollUpsEqualAllAtOnce(executions, random);
    }

    private void assertRollUpsEqualAllAtOnce(List<String> executions, Random random) {
        List<WindowCounts> fine = new ArrayList<>();
        for (String key : executions) {
            ExecutionId e = ExecutionId.fromKey(key);
            writer.writeInstances(List.of(new InstanceRecord(e.service(), e.version(), e.instance(), "h", 1, T0,
                    Map.of(), FROM, TO)));
            for (long start = FROM; start < TO; start += WINDOW) {
                if (random.nextInt(4) > 0) {
                    fine.add(new WindowCounts(key, start, start + WINDOW, TreeCounts.of(tree(random)),
                            new TruncationCounts(random.nextInt(2), random.nextInt(2), 0, 0)));
                }
            }
        }
        writer.writeWindowCounts(fine);
        Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10));
        rollups.rollUp(T0 + 3 * DAY);
        assertStoredEqualsAllAtOnce(fine);
        rollups.rollUp(T0 + 3 * DAY); // every window was written within the margin: all rolled up again
        assertStoredEqualsAllAtOnce(fine);
    }

    private void assertStoredEqualsAllAtOnce(List<WindowCounts> fine) {
        for (Resolution r : new Resolution[] {Resolution.HOUR, Resolution.DAY}) {
            Map<String, WindowCounts> expected = allAtOnce(fine, r, WindowCounts::executionKey);
            Map<String, WindowCounts> stored = new TreeMap<>();
            for (WindowCounts w : windows.windowsStartingIn(r, 0, Long.MAX_VALUE)) {
                stored.put(w.executionKey() + "@" + w.windowStartMillis(), w);
            }
            assertThat(stored).as("%s windows of executions", r).isEqualTo(expected);
        }
        for (Resolution r : new Resolution[] {Resolution.TEN_MINUTES, Resolution.HOUR, Resolution.DAY}) {
            Map<String, WindowCounts> expected = allAtOnce(fine, r, w -> Keys.deploymentRollup(w.executionKey()));
            Map<String, Set<String>> executions = new TreeMap<>();
            for (WindowCounts w : fine) {
                executions.computeIfAbsent(Keys.deploymentRollup(w.executionKey()) + "@" + r.floor(w.windowStartMillis()),
                        k -> new TreeSet<>()).add(w.executionKey());
            }
            // a slot of one execution has no deployment roll-up: it would repeat the execution's own
            expected.keySet().removeIf(slot -> executions.get(slot).size() < 2);
            Map<String, WindowCounts> stored = new TreeMap<>();
            for (DeploymentWindow d : windows.deploymentWindowsStartingIn(r, 0, Long.MAX_VALUE)) {
                WindowCounts w = d.window();
                String slot = w.executionKey() + "@" + w.windowStartMillis();
                stored.put(slot, w);
                assertThat(d.members()).as("members of %s %s", r, slot).isEqualTo(members(fine, r, w));
            }
            assertThat(stored).as("%s windows of deployments", r).isEqualTo(expected);
        }
    }

    /** The earlier pass: every fine window of a slot, grouped by {@code key} and summed in one go. */
    private static Map<String, WindowCounts> allAtOnce(List<WindowCounts> fine, Resolution r,
            Function<WindowCounts, String> key) {
        Map<String, List<WindowCounts>> groups = new TreeMap<>();
        for (WindowCounts w : fine) {
            groups.computeIfAbsent(key.apply(w) + "@" + r.floor(w.windowStartMillis()), k -> new ArrayList<>()).add(w);
        }
        Map<String, WindowCounts> out = new TreeMap<>();
        groups.forEach((slot, parts) -> {
            TruncationCounts truncation = TruncationCounts.NONE;
            for (WindowCounts p : parts) {
                truncation = truncation.plus(p.truncation());
            }
            long start = r.floor(parts.get(0).windowStartMillis());
            out.put(slot, new WindowCounts(key.apply(parts.get(0)), start, start + r.millis(), WindowReader.sum(parts),
                    truncation));
        });
        return out;
    }

    private static List<String> members(List<WindowCounts> fine, Resolution r, WindowCounts deploymentWindow) {
        TreeSet<String> out = new TreeSet<>();
        for (WindowCounts w : fine) {
            if (Keys.deploymentRollup(w.executionKey()).equals(deploymentWindow.executionKey())
                    && r.floor(w.windowStartMillis()) == deploymentWindow.windowStartMillis()) {
                out.add(w.executionKey());
            }
        }
        return List.copyOf(out);
    }

    private static Cct tree(Random random) {
        Cct tree = new Cct();
        int[] threads = {tree.thread("main"), tree.thread("worker-1")};
        for (int s = 0; s < 1 + random.nextInt(5); s++) {
            int depth = 1 + random.nextInt(5);
            long[] methods = new long[depth];
            int[] lines = new int[depth];
            for (int d = 0; d < depth; d++) {
                methods[d] = 1 + random.nextInt(8);
                lines[d] = random.nextInt(2);
            }
            tree.addStack(methods, lines, depth, threads[random.nextInt(2)], 1 + random.nextInt(9));
        }
        writeTopology(tree);
        return tree;
    }
}
