package io.cctflow.graph.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.Keys;
import io.cctflow.graph.StoreStamp;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.Resolution;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import io.cctflow.model.WindowSpan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

/**
 * Late fine windows into hours whose other fine windows retention has deleted (issue 30, item 4):
 * a roll-up is never rewritten from less than it already covers. The passes here make one instance
 * group of both executions, whose roll-ups must follow the deployment's exactly.
 */
class RollupsAfterRetentionTest extends CleanGraph {
    private static final long HOUR = Resolution.HOUR.millis();
    private static final long DAY = Resolution.DAY.millis();
    private static final long T0 = 1_700_006_400_000L; // a UTC midnight
    private static final long WINDOW = 5 * 60_000L;
    private static final String A = new ExecutionId("svc", "v1", "a").key();
    private static final String B = new ExecutionId("svc", "v1", "b").key();
    private static final long NOW = T0 + 10 * DAY;
    /** Fine windows kept 2 days: at {@link #NOW} every fine window of day 0 is expired. */
    private static final RetentionPolicy POLICY = new RetentionPolicy(Duration.ofDays(2), Duration.ofDays(90),
            Duration.ofDays(700));

    private final List<WindowCounts> fine = new ArrayList<>();
    private final Random random = new Random(30);

    private void writeFine(List<WindowCounts> windows) {
        fine.addAll(windows);
        writer.writeWindowCounts(windows);
    }

    /** Fine windows of both executions over hours 1 to 4 of day 0, every fifth one missing. */
    private List<WindowCounts> dayOfWindows() {
        for (String key : List.of(A, B)) {
            ExecutionId e = ExecutionId.fromKey(key);
            writer.writeInstances(List.of(new InstanceRecord(e.service(), e.version(), e.instance(), "h", 1, T0,
                    Map.of(), T0 + HOUR, T0 + 5 * HOUR)));
        }
        List<WindowCounts> out = new ArrayList<>();
        for (long start = T0 + HOUR; start < T0 + 5 * HOUR; start += WINDOW) {
            for (String key : List.of(A, B)) {
                if (random.nextInt(5) > 0) {
                    out.add(window(key, start));
                }
            }
        }
        return out;
    }

    private WindowCounts window(String key, long start) {
        Cct tree = new Cct();
        int thread = tree.thread("main");
        for (int s = 0; s < 1 + random.nextInt(4); s++) {
            int depth = 1 + random.nextInt(4);
            long[] methods = new long[depth];
            int[] lines = new int[depth];
            for (int d = 0; d < depth; d++) {
                methods[d] = 1 + random.nextInt(5);
            }
            tree.addStack(methods, lines, depth, thread, 1 + random.nextInt(9));
        }
        writeTopology(tree);
        return new WindowCounts(key, start, start + WINDOW, TreeCounts.of(tree),
                new TruncationCounts(random.nextInt(2), 0, 0, random.nextInt(2)));
    }

    /** Every fine window written for the key that starts in [from, to), the late ones included. */
    private TreeCounts written(String key, long from, long to) {
        TreeCounts sum = TreeCounts.empty();
        for (WindowCounts w : fine) {
            if ((key == null || w.executionKey().equals(key)) && w.windowStartMillis() >= from
                    && w.windowStartMillis() < to) {
                sum = sum.plus(w.counts());
            }
        }
        return sum;
    }

    private WindowCounts stored(String key, Resolution resolution, long start) {
        return windows.windows(List.of(new WindowSpan(key, resolution, start, start + resolution.millis())))
                .get(0);
    }

    private DeploymentWindow deploymentWindow(Resolution resolution, long start) {
        return windows.deploymentWindowsStartingIn(resolution, start, start + 1).get(0);
    }

    /**
     * The roll-up of A's and B's instance group (the passes here make one group, so it sums the
     * same executions as the deployment's): it must hold exactly what the deployment's holds.
     */
    private DeploymentWindow groupWindow(Resolution resolution, long start) {
        DeploymentWindow group = windows.groupWindowsStartingIn(resolution, start, start + 1).get(0);
        assertThat(group.window().executionKey()).isEqualTo(Keys.instanceGroup(A, 1));
        assertThat(group.members()).isEqualTo(deploymentWindow(resolution, start).members());
        assertThat(group.window().counts()).as("group %s at %d", resolution, start)
                .isEqualTo(deploymentWindow(resolution, start).window().counts());
        assertThat(group.window().truncation()).isEqualTo(deploymentWindow(resolution, start).window().truncation());
        return group;
    }

    private void assertRollUpsHoldEverythingWritten() {
        for (String key : List.of(A, B)) {
            for (long hour = T0 + HOUR; hour < T0 + 5 * HOUR; hour += HOUR) {
                assertThat(stored(key, Resolution.HOUR, hour).counts()).as("hour %d of %s", (hour - T0) / HOUR, key)
                        .isEqualTo(written(key, hour, hour + HOUR));
                assertThat(deploymentWindow(Resolution.HOUR, hour).window().counts()).as("deployment hour %d",
                        (hour - T0) / HOUR).isEqualTo(written(null, hour, hour + HOUR));
                groupWindow(Resolution.HOUR, hour);
            }
            assertThat(stored(key, Resolution.DAY, T0).counts()).as("day of %s", key)
                    .isEqualTo(written(key, T0, T0 + DAY));
        }
        assertThat(deploymentWindow(Resolution.DAY, T0).window().counts()).as("deployment day")
                .isEqualTo(written(null, T0, T0 + DAY));
        assertThat(deploymentWindow(Resolution.DAY, T0).members()).containsExactly(A, B);
        groupWindow(Resolution.DAY, T0);
    }

    @Test
    void aLateWindowAfterRetentionIsAddedToWhatItsHourAndDayAlreadyHeld() {
        writeFine(dayOfWindows());
        Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10), 1);
        rollups.rollUp(NOW);
        Retention retention = new Retention(driver, "", POLICY);
        String stamp = windowStamp();
        assertThat(retention.deleteExpired(NOW, 50).get(Resolution.FINE)).isEqualTo(fine.size());
        assertThat(windows.windows(List.of(A, B), 0, Long.MAX_VALUE)).isEmpty();
        assertThat(windowStamp()).as("deleting windows gives the store a new window stamp (StoreStamp)")
                .isNotNull().isNotEqualTo(stamp);

        // a late window of A in hour 2, at a start no window had (e.g. an import of an old recording)
        long lateStart = T0 + 2 * HOUR + 2 * 60_000;
        writeFine(List.of(window(A, lateStart)));
        Rollups.Result again = rollups.rollUp(NOW);
        assertThat(again.hours()).isEqualTo(1);
        assertThat(again.refused()).isZero();
        assertRollUpsHoldEverythingWritten();

        // the same window written again (a replay) after the next retention: not counted twice
        retention.deleteExpired(NOW, 50);
        writer.writeWindowCounts(List.of(fine.get(fine.size() - 1)));
        rollups.rollUp(NOW);
        assertRollUpsHoldEverythingWritten();
    }

    private static String windowStamp() {
        try (Session session = driver.session()) {
            Value v = session.run(StoreStamp.READ, Map.of("name", StoreStamp.WINDOWS)).single().get("version");
            return v.isNull() ? null : v.asString();
        }
    }

    @Test
    void aLateWindowAfterItsHourExpiredIsAddedToItsDay() {
        writeFine(dayOfWindows());
        Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10), 1);
        rollups.rollUp(NOW);
        long later = T0 + 200 * DAY; // every fine and hourly window of day 0 expired, the day is kept
        new Retention(driver, "", POLICY).deleteExpired(later, 50);
        assertThat(windows.windowsStartingIn(Resolution.HOUR, T0, T0 + DAY)).isEmpty();

        writeFine(List.of(window(B, T0 + 3 * HOUR + 40 * 60_000)));
        assertThat(rollups.rollUp(later).refused()).isZero();
        assertThat(stored(B, Resolution.DAY, T0).counts()).isEqualTo(written(B, T0, T0 + DAY));
        assertThat(stored(A, Resolution.DAY, T0).counts()).isEqualTo(written(A, T0, T0 + DAY));
        assertThat(deploymentWindow(Resolution.DAY, T0).window().counts()).isEqualTo(written(null, T0, T0 + DAY));
        groupWindow(Resolution.DAY, T0);
    }

    @Test
    void aRewrittenWindowWhoseSiblingsExpiredIsRefusedAndCounted() {
        List<WindowCounts> day = dayOfWindows();
        writeFine(day);
        Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10), 1);
        rollups.rollUp(NOW);
        new Retention(driver, "", POLICY).deleteExpired(NOW, 50);
        TreeCounts hourBefore = stored(A, Resolution.HOUR, T0 + 2 * HOUR).counts();

        // a different version of a window the hour already covers: what it replaces is gone, so the
        // hour cannot be corrected; it keeps what it held and the pass counts the refusal
        WindowCounts covered = day.stream().filter(w -> w.executionKey().equals(A)
                && Resolution.HOUR.floor(w.windowStartMillis()) == T0 + 2 * HOUR).findFirst().orElseThrow();
        writer.writeWindowCounts(List.of(window(A, covered.windowStartMillis())));
        assertThat(rollups.rollUp(NOW).refused()).isEqualTo(1);
        assertThat(stored(A, Resolution.HOUR, T0 + 2 * HOUR).counts()).isEqualTo(hourBefore);
        assertThat(stored(A, Resolution.DAY, T0).counts()).isEqualTo(written(A, T0, T0 + DAY));
        assertThat(Keys.deploymentRollup(A)).isEqualTo(deploymentWindow(Resolution.DAY, T0).window().executionKey());
        groupWindow(Resolution.HOUR, T0 + 2 * HOUR); // the group keeps what the deployment keeps
        groupWindow(Resolution.DAY, T0);
    }
}
