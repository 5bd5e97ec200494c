package io.cctflow.graph.maintenance;

import io.cctflow.graph.FineSums;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.read.RangePlanner;
import io.cctflow.graph.read.WindowCache;
import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.Keys;
import io.cctflow.model.Resolution;
import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.RawThreadNames;
import io.cctflow.core.TreeCounts;
import io.cctflow.model.DeploymentRecord;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Roll-ups, mixed-resolution range reads and retention against the real Neo4j, checked against the fine windows. */
class RollupsTest extends CleanGraph {
    private static final long HOUR = Resolution.HOUR.millis();
    private static final long DAY = Resolution.DAY.millis();
    private static final long T0 = 1_700_006_400_000L; // a UTC midnight
    private static final long WINDOW = 15 * 60_000L;
    private static final List<String> KEYS = List.of(
            new ExecutionId("svc", "v1", "a").key(), new ExecutionId("svc", "v1", "b").key());

    private final List<WindowCounts> fine = new ArrayList<>();

    /** Random fine windows of both instances over [T0 + 30 min, T0 + 1 day + 5 h), some missing. */
    private void writeFineWindows(long seed) {
        writeFineWindows(seed, KEYS);
    }

    /** Random fine windows of these executions over [T0 + 30 min, T0 + 1 day + 5 h), some missing. */
    private void writeFineWindows(long seed, List<String> keys) {
        Random random = new Random(seed);
        for (String key : keys) {
            ExecutionId e = ExecutionId.fromKey(key);
            writer.writeInstances(List.of(new InstanceRecord(e.service(), e.version(), e.instance(), "h", 1, T0,
                    Map.of(), T0 + 30 * 60_000, T0 + DAY + 5 * HOUR)));
        }
        for (long start = T0 + 30 * 60_000; start < T0 + DAY + 5 * HOUR; start += WINDOW) {
            for (String key : keys) {
                if (random.nextInt(5) > 0) {
                    fine.add(new WindowCounts(key, start, start + WINDOW, TreeCounts.of(randomTree(random))
                            .withRawThreadNames(RawThreadNames.of("worker-" + random.nextInt(12))),
                            new TruncationCounts(random.nextInt(3), random.nextInt(3), 0, random.nextInt(2))));
                }
            }
        }
        writer.writeWindowCounts(fine);
    }

    private static Cct randomTree(Random random) {
        Cct tree = new Cct();
        int[] threads = {tree.thread("main"), tree.thread("pool-1-thread-1")};
        for (int s = 0; s < 1 + random.nextInt(6); s++) {
            int depth = 1 + random.nextInt(5);
            long[] methods = new long[depth];
            int[] lines = new int[depth];
            for (int d = 0; d < depth; d++) {
                methods[d] = 1 + random.nextInt(4); // few methods: recursion happens
                lines[d] = random.nextInt(2);
            }
            tree.addStack(methods, lines, depth, threads[random.nextInt(2)], 1 + random.nextInt(9));
        }
        writeTopology(tree);
        return tree;
    }

    private TreeCounts fineSum(List<String> keys, long from, long to) {
        return FineSums.overlapping(fine, keys, from, to);
    }

    /** Random ranges over the written windows, the fixed awkward ones first. */
    private static List<long[]> ranges(long seed) {
        Random random = new Random(seed);
        List<long[]> cases = new ArrayList<>(List.of(
                new long[] {T0, T0 + 3 * DAY}, new long[] {T0 + DAY, T0 + 2 * DAY}, new long[] {T0 - DAY, T0 + DAY},
                new long[] {T0 + 7 * 60_000, T0 + DAY + 3 * HOUR + 1}, new long[] {T0 + HOUR, T0 + 2 * HOUR}));
        for (int i = 0; i < 12; i++) {
            long from = T0 + random.nextLong(30 * HOUR);
            cases.add(new long[] {from, from + 1 + random.nextLong(30 * HOUR)});
        }
        return cases;
    }

    @Test
    void cachedRangeReadsEqualFineOnlyReadsAndReadRewrittenWindowsAgain() {
        writeFineWindows(7);
        Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10));
        rollups.rollUp(T0 + 3 * DAY);
        WindowCache cache = new WindowCache(1_000_000, 0); // settled at once: tests write just before reading
        WindowReader cached = new WindowReader(driver, "", cache);
        for (int round = 0; round < 2; round++) { // the second round is served from the cache
            for (long[] c : ranges(11)) {
                for (List<String> keys : List.of(KEYS, List.of(KEYS.get(1)))) {
                    assertThat(WindowReader.sum(cached.range(keys, c[0], c[1])))
                            .as("round %d, [%d, %d) of %s", round, c[0] - T0, c[1] - T0, keys)
                            .isEqualTo(fineSum(keys, c[0], c[1]));
                    assertThat(cached.plan(keys, c[0], c[1]).sum()) // summed per time slot, groups cached
                            .as("round %d, sum of [%d, %d) of %s", round, c[0] - T0, c[1] - T0, keys)
                            .isEqualTo(fineSum(keys, c[0], c[1]));
                }
            }
            assertThat(cache.rows()).isPositive();
        }

        // late windows rewrite fine windows in rolled-up hours and at the edges; their hours are rolled up again
        Random random = new Random(8);
        List<WindowCounts> rewritten = new ArrayList<>();
        for (int i = 0; i < fine.size(); i += 1 + random.nextInt(6)) {
            WindowCounts old = fine.get(i);
            WindowCounts late = new WindowCounts(old.executionKey(), old.windowStartMillis(), old.windowEndMillis(),
                    TreeCounts.of(randomTree(random)), old.truncation());
            fine.set(i, late);
            rewritten.add(late);
        }
        writer.writeWindowCounts(rewritten);
        for (long[] c : ranges(11)) { // before the next pass, only the rewritten fine windows are new
            TreeCounts uncached = WindowReader.sum(windows.range(KEYS, c[0], c[1]));
            assertThat(WindowReader.sum(cached.range(KEYS, c[0], c[1]))).isEqualTo(uncached);
            assertThat(cached.plan(KEYS, c[0], c[1]).sum()).isEqualTo(uncached);
        }
        assertThat(rollups.rollUp(T0 + 3 * DAY).hours()).isPositive();
        for (long[] c : ranges(12)) {
            for (List<String> keys : List.of(KEYS, List.of(KEYS.get(0)))) {
                assertThat(WindowReader.sum(cached.range(keys, c[0], c[1])))
                        .as("after rewrites, [%d, %d) of %s", c[0] - T0, c[1] - T0, keys)
                        .isEqualTo(fineSum(keys, c[0], c[1]));
                assertThat(cached.plan(keys, c[0], c[1]).sum())
                        .as("after rewrites, sum of [%d, %d) of %s", c[0] - T0, c[1] - T0, keys)
                        .isEqualTo(fineSum(keys, c[0], c[1]));
            }
        }
    }

    @Test
    void windowCacheKeepsNoOpenWindowAndStaysWithinItsBound() {
        writeFineWindows(9);
        new Rollups(driver, "", Duration.ofMinutes(10)).rollUp(T0 + 3 * DAY);
        WindowCache unsettled = new WindowCache(1_000_000, WindowReader.WRITE_MARGIN_MILLIS);
        WindowReader open = new WindowReader(driver, "", unsettled);
        WindowCache small = new WindowCache(300, 0);
        WindowReader bounded = new WindowReader(driver, "", small);
        for (long[] c : ranges(13)) {
            assertThat(WindowReader.sum(open.range(KEYS, c[0], c[1]))).isEqualTo(fineSum(KEYS, c[0], c[1]));
            assertThat(WindowReader.sum(bounded.range(KEYS, c[0], c[1]))).isEqualTo(fineSum(KEYS, c[0], c[1]));
            assertThat(small.rows()).isBetween(1L, 300L);
        }
        assertThat(unsettled.rows()).isZero(); // every window was written within the last minute
    }

    @Test
    void rollUpsSumTheFineWindowsAndAPassIsIdempotent() {
        writeFineWindows(1);
        Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10));
        Rollups.Result result = rollups.rollUp(T0 + 3 * DAY);
        rollups.rollUp(T0 + 3 * DAY); // a second pass changes nothing

        assertThat(result.hours()).isEqualTo(29); // 00:30 on day 0 to 04:45 on day 1
        assertThat(result.days()).isEqualTo(2); // day 2 has no samples, and is not over at the pass
        for (Resolution r : new Resolution[] {Resolution.HOUR, Resolution.DAY}) {
            List<WindowCounts> rolled = windows.windowsStartingIn(r, T0 - DAY, T0 + 4 * DAY);
            assertThat(rolled).isNotEmpty();
            for (WindowCounts w : rolled) {
                List<WindowCounts> parts = fine.stream().filter(f -> f.executionKey().equals(w.executionKey())
                        && f.windowStartMillis() >= w.windowStartMillis()
                        && f.windowStartMillis() < w.windowEndMillis()).toList();
                assertThat(w.counts()).as("%s %s at %d", r, w.executionKey(), w.windowStartMillis())
                        .isEqualTo(WindowReader.sum(parts));
                assertThat(w.truncation().total())
                        .isEqualTo(parts.stream().mapToLong(p -> p.truncation().total()).sum());
                assertThat(w.windowEndMillis() - w.windowStartMillis()).isEqualTo(r.millis());
            }
        }
        for (Resolution r : new Resolution[] {Resolution.TEN_MINUTES, Resolution.HOUR, Resolution.DAY}) {
            assertDeploymentWindowsSumTheirMembers(r);
        }
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (w:Window {resolution: 'hour'}) RETURN count(w) AS c").single()
                    .get("c").asLong()).isEqualTo(windows.windowsStartingIn(Resolution.HOUR, 0, Long.MAX_VALUE).size()
                            + windows.deploymentWindowsStartingIn(Resolution.HOUR, 0, Long.MAX_VALUE).size()
                            + windows.groupWindowsStartingIn(Resolution.HOUR, 0, Long.MAX_VALUE).size());
        }
    }

    /**
     * Every stored deployment roll-up of {@code r} is the sum of the fine windows of its deployment
     * that start within it, and its members are exactly their executions; every slot of two or
     * more executions has one, and no slot of one execution (it would repeat that execution's own).
     */
    private void assertDeploymentWindowsSumTheirMembers(Resolution r) {
        List<DeploymentWindow> rolled = windows.deploymentWindowsStartingIn(r, 0, Long.MAX_VALUE);
        for (DeploymentWindow d : rolled) {
            WindowCounts w = d.window();
            List<WindowCounts> parts = fine.stream().filter(f -> Keys.deploymentRollup(f.executionKey())
                    .equals(w.executionKey()) && f.windowStartMillis() >= w.windowStartMillis()
                    && f.windowStartMillis() < w.windowEndMillis()).toList();
            assertThat(w.counts()).as("%s %s at %d", r, w.executionKey(), w.windowStartMillis())
                    .isEqualTo(WindowReader.sum(parts));
            assertThat(d.members()).isEqualTo(parts.stream().map(WindowCounts::executionKey).distinct().sorted()
                    .toList());
            assertThat(w.truncation().total()).isEqualTo(parts.stream().mapToLong(p -> p.truncation().total()).sum());
            assertThat(w.windowEndMillis() - w.windowStartMillis()).isEqualTo(r.millis());
        }
        Map<String, Set<String>> executionsBySlot = new HashMap<>();
        for (WindowCounts f : fine) {
            executionsBySlot.computeIfAbsent(Keys.deploymentRollup(f.executionKey()) + "@"
                    + r.floor(f.windowStartMillis()), s -> new HashSet<>()).add(f.executionKey());
        }
        long shared = executionsBySlot.values().stream().filter(e -> e.size() > 1).count();
        assertThat(shared).as("%s slots of two or more executions", r).isPositive();
        assertThat(rolled).as("%s deployment roll-ups", r).hasSize((int) shared)
                .allSatisfy(d -> assertThat(d.members()).hasSizeGreaterThan(1));
    }

    @Test
    void rangeReadsOfWholeDeploymentsUseTheirRollUpsAndEqualFineOnlyReads() {
        String c = new ExecutionId("svc", "v2", "c").key();
        String late = new ExecutionId("svc", "v1", "late").key();
        writeFineWindows(21, List.of(KEYS.get(0), KEYS.get(1), c));
        Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10));
        rollups.rollUp(T0 + 3 * DAY);
        WindowCache cache = new WindowCache(1_000_000, 0);
        WindowReader cached = new WindowReader(driver, "", cache);
        WindowReader plain = windows;
        List<List<String>> selections = List.of(KEYS, List.of(KEYS.get(0)), List.of(KEYS.get(0), KEYS.get(1), c),
                List.of(KEYS.get(1), c), List.of(c), List.of(KEYS.get(0), KEYS.get(1), late));
        String v1 = Keys.deploymentRollup("svc", "v1");
        for (long[] range : ranges(22)) {
            for (List<String> keys : selections) {
                RangePlanner.Plan plan = plain.plan(keys, range[0], range[1]);
                assertThat(WindowReader.sum(plan.read())).as("[%d, %d) of %s", range[0] - T0, range[1] - T0, keys)
                        .isEqualTo(fineSum(keys, range[0], range[1]));
                assertThat(cached.plan(keys, range[0], range[1]).sum())
                        .as("sum of [%d, %d) of %s", range[0] - T0, range[1] - T0, keys)
                        .isEqualTo(fineSum(keys, range[0], range[1]));
                long firstWholeHour = Math.max(Resolution.HOUR.ceil(range[0]), T0 + HOUR);
                if (keys.containsAll(KEYS) && firstWholeHour + HOUR <= Math.min(range[1], T0 + DAY + 5 * HOUR)) {
                    assertThat(plan.rollups()).as("v1's own roll-ups for %s over [%d, %d)", keys, range[0] - T0,
                            range[1] - T0).anyMatch(s -> s.executionKey().equals(v1));
                    assertThat(plan.rollups()).noneMatch(s -> KEYS.contains(s.executionKey())
                            && s.resolution() == Resolution.HOUR && s.startMillis() == firstWholeHour);
                }
            }
        }
        // a late instance of v1 in rolled-up hours: not a member until the next pass, then one
        List<WindowCounts> lateWindows = new ArrayList<>();
        Random random = new Random(23);
        for (long start = T0 + 2 * HOUR; start < T0 + 5 * HOUR; start += WINDOW) {
            lateWindows.add(new WindowCounts(late, start, start + WINDOW, TreeCounts.of(randomTree(random))));
        }
        fine.addAll(lateWindows);
        writer.writeWindowCounts(lateWindows);
        for (int pass = 0; pass < 2; pass++) {
            for (long[] range : ranges(24)) {
                for (List<String> keys : selections) {
                    assertThat(cached.plan(keys, range[0], range[1]).sum())
                            .as("pass %d, late instance, [%d, %d) of %s", pass, range[0] - T0, range[1] - T0, keys)
                            .isEqualTo(fineSum(keys, range[0], range[1]));
                }
            }
            assertThat(rollups.rollUp(T0 + 3 * DAY).hours()).isGreaterThanOrEqualTo(3); // hours 2 to 4
        }
        assertDeploymentWindowsSumTheirMembers(Resolution.HOUR);
        assertDeploymentWindowsSumTheirMembers(Resolution.TEN_MINUTES);
    }

    @Test
    void aDeploymentOfOneInstanceHasNoRollUpsOfItsOwnUntilASecondInstanceComes() {
        String a = KEYS.get(0);
        String b = KEYS.get(1);
        writeFineWindows(31, List.of(a));
        Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10));
        rollups.rollUp(T0 + 3 * DAY);
        for (Resolution r : new Resolution[] {Resolution.TEN_MINUTES, Resolution.HOUR, Resolution.DAY}) {
            assertThat(windows.deploymentWindowsStartingIn(r, 0, Long.MAX_VALUE)).as("%s", r).isEmpty();
        }
        for (long[] range : ranges(32)) { // served by the instance's own roll-ups and fine windows
            assertThat(windows.plan(List.of(a), range[0], range[1]).sum()).as("[%d, %d)", range[0] - T0, range[1] - T0)
                    .isEqualTo(fineSum(List.of(a), range[0], range[1]));
        }

        // a one-member roll-up stored by an earlier version is rewritten when its hour is rolled up again
        long hour = T0 + 2 * HOUR;
        try (var session = driver.session()) {
            session.run("MATCH (w:Window {instance: $a, resolution: 'hour', start: $start})"
                    + " CREATE (d:Window) SET d = w {.*, instance: $deployment, members: [$a]}",
                    Map.of("a", a, "start", hour, "deployment", Keys.deploymentRollup(a))).consume();
        }
        WindowCounts late = new WindowCounts(a, hour + 5 * 60_000, hour + 6 * 60_000,
                TreeCounts.of(randomTree(new Random(33))));
        fine.add(late);
        writer.writeWindowCounts(List.of(late));
        rollups.rollUp(T0 + 3 * DAY);
        assertThat(windows.deploymentWindowsStartingIn(Resolution.HOUR, 0, Long.MAX_VALUE)).singleElement()
                .satisfies(d -> {
                    assertThat(d.members()).containsExactly(a);
                    assertThat(d.window().counts()).isEqualTo(fineSum(List.of(a), hour, hour + HOUR));
                });
        assertThat(windows.plan(List.of(a), T0, T0 + 2 * DAY).sum()).isEqualTo(fineSum(List.of(a), T0, T0 + 2 * DAY));

        // a second instance in hours already rolled up: the next pass writes the deployment's roll-ups
        writeFineWindows(34, List.of(b));
        rollups.rollUp(T0 + 3 * DAY);
        for (Resolution r : new Resolution[] {Resolution.TEN_MINUTES, Resolution.HOUR, Resolution.DAY}) {
            assertDeploymentWindowsSumTheirMembers(r);
        }
        for (long[] range : ranges(35)) {
            for (List<String> keys : List.of(KEYS, List.of(a), List.of(b))) {
                assertThat(windows.plan(keys, range[0], range[1]).sum())
                        .as("[%d, %d) of %s", range[0] - T0, range[1] - T0, keys)
                        .isEqualTo(fineSum(keys, range[0], range[1]));
            }
        }
    }

    @Test
    void unsettledHoursWaitAndLateWindowsRollUpAgain() {
        writeFineWindows(2);
        Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10));
        rollups.rollUp(T0 + DAY + 5 * 60_000); // the hour before midnight is not settled yet
        assertThat(windows.windowStarts(Resolution.HOUR, T0 + DAY - HOUR, T0 + DAY)).isEmpty();
        assertThat(windows.windowStarts(Resolution.DAY, 0, Long.MAX_VALUE)).isEmpty();

        Random random = new Random(3);
        WindowCounts late = new WindowCounts(KEYS.get(0), T0 + 3 * HOUR + 5 * 60_000,
                T0 + 3 * HOUR + 6 * 60_000, TreeCounts.of(randomTree(random)));
        fine.add(late);
        writer.writeWindowCounts(List.of(late)); // into an hour already rolled up
        rollups.rollUp(T0 + DAY + HOUR);

        assertThat(windows.windows(List.of(new io.cctflow.model.WindowSpan(KEYS.get(0), Resolution.HOUR,
                T0 + 3 * HOUR, T0 + 4 * HOUR)))).singleElement()
                .extracting(WindowCounts::counts).isEqualTo(fineSum(List.of(KEYS.get(0)), T0 + 3 * HOUR, T0 + 4 * HOUR));
        assertThat(windows.windowsStartingIn(Resolution.DAY, T0, T0 + 1)).hasSize(2)
                .allSatisfy(d -> assertThat(d.counts()).isEqualTo(fineSum(List.of(d.executionKey()), T0, T0 + DAY)));
    }

    @Test
    void rangeReadsOverMixedResolutionsEqualFineOnlyReads() {
        writeFineWindows(4);
        new Rollups(driver, "", Duration.ofMinutes(10)).rollUp(T0 + 3 * DAY);
        WindowReader ranges = windows;
        for (long[] c : ranges(5)) {
            for (List<String> keys : List.of(KEYS, List.of(KEYS.get(1)))) {
                RangePlanner.Plan plan = ranges.plan(keys, c[0], c[1]);
                List<WindowCounts> read = plan.read();
                assertThat(WindowReader.sum(read)).as("[%d, %d) of %s", c[0] - T0, c[1] - T0, keys)
                        .isEqualTo(fineSum(keys, c[0], c[1]));
                assertThat(WindowReader.sum(windows.windows(keys, c[0], c[1]))).isEqualTo(fineSum(keys, c[0], c[1]));
                if (c[0] <= T0 && c[1] >= T0 + DAY) {
                    assertThat(plan.rollups()).anyMatch(s -> s.resolution() == Resolution.DAY);
                    assertThat(read.size()).isLessThan((int) fine.stream().filter(w -> keys.contains(w.executionKey())
                            && w.windowStartMillis() < c[1] && w.windowEndMillis() > c[0]).count() / 4);
                }
            }
        }
    }

    @Test
    void aPlanWhoseDeploymentRollUpsWereRolledUpAgainIsMadeAgain() {
        String late = new ExecutionId("svc", "v1", "late").key();
        writeFineWindows(31);
        Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10));
        rollups.rollUp(T0 + 3 * DAY);
        List<WindowCounts> lateWindows = new ArrayList<>();
        Random random = new Random(32);
        for (long start = T0 + 2 * HOUR; start < T0 + 5 * HOUR; start += WINDOW) {
            lateWindows.add(new WindowCounts(late, start, start + WINDOW, TreeCounts.of(randomTree(random))));
        }
        fine.addAll(lateWindows);
        writer.writeWindowCounts(lateWindows);
        long from = T0 + HOUR + 17 * 60_000;
        long to = T0 + 20 * HOUR + 5 * 60_000;
        List<List<String>> selections = List.of(KEYS, List.of(KEYS.get(0), KEYS.get(1), late));
        List<RangePlanner.Plan> plans = new ArrayList<>();
        WindowReader ranges = windows; // windows written within the minute are never cached
        for (List<String> keys : selections) {
            RangePlanner.Plan plan = ranges.plan(keys, from, to);
            assertThat(plan.rollups()).anyMatch(s -> s.executionKey().equals(Keys.deploymentRollup("svc", "v1")));
            plans.add(plan);
        }
        rollups.rollUp(T0 + 3 * DAY); // v1's hours 2 to 4 now have the late instance as a member
        for (int i = 0; i < plans.size(); i++) {
            // read as planned, v1's new roll-ups would count the late instance where the plan
            // left it out (first selection) or read it on its own as well (second)
            assertThat(plans.get(i).sum()).as("%s", selections.get(i))
                    .isEqualTo(fineSum(selections.get(i), from, to));
            assertThat(WindowReader.sum(plans.get(i).read())).isEqualTo(fineSum(selections.get(i), from, to));
        }
    }

    @Test
    void retentionDeletesOnlyExpiredWindowsAndNeverUnrolledOnes() {
        writeFineWindows(6);
        Retention retention = new Retention(driver, "", new RetentionPolicy(Duration.ofDays(1), Duration.ofHours(20),
                Duration.ofDays(3)));
        long now = T0 + DAY + 6 * HOUR;
        assertThat(retention.deleteExpired(now, 7)).containsEntry(Resolution.FINE, 0L); // nothing rolled up yet

        new Rollups(driver, "", Duration.ofMinutes(10)).rollUp(now);
        List<WindowCounts> hours = windows.windowsStartingIn(Resolution.HOUR, 0, Long.MAX_VALUE);
        List<WindowCounts> days = windows.windowsStartingIn(Resolution.DAY, 0, Long.MAX_VALUE);
        List<DeploymentWindow> deploymentHours = new ArrayList<>(
                windows.deploymentWindowsStartingIn(Resolution.HOUR, 0, Long.MAX_VALUE));
        deploymentHours.addAll(windows.groupWindowsStartingIn(Resolution.HOUR, 0, Long.MAX_VALUE)); // expire alike
        List<DeploymentWindow> tens = new ArrayList<>(
                windows.deploymentWindowsStartingIn(Resolution.TEN_MINUTES, 0, Long.MAX_VALUE));
        tens.addAll(windows.groupWindowsStartingIn(Resolution.TEN_MINUTES, 0, Long.MAX_VALUE));
        Map<Resolution, Long> deleted = retention.deleteExpired(now, 7);

        long fineExpired = fine.stream().filter(w -> w.windowEndMillis() <= now - DAY).count();
        long hoursExpired = hours.stream().filter(w -> w.windowEndMillis() <= now - 20 * HOUR).count();
        long deploymentHoursExpired = deploymentHours.stream()
                .filter(w -> w.window().windowEndMillis() <= now - 20 * HOUR).count();
        long tensExpired = tens.stream().filter(w -> w.window().windowEndMillis() <= now - DAY).count();
        assertThat(deleted).containsEntry(Resolution.FINE, fineExpired)
                .containsEntry(Resolution.HOUR, hoursExpired + deploymentHoursExpired)
                .containsEntry(Resolution.TEN_MINUTES, tensExpired).containsEntry(Resolution.DAY, 0L);
        assertThat(tensExpired).isPositive();
        assertThat(windows.deploymentWindowsStartingIn(Resolution.TEN_MINUTES, 0, Long.MAX_VALUE).size()
                + windows.groupWindowsStartingIn(Resolution.TEN_MINUTES, 0, Long.MAX_VALUE).size())
                .isEqualTo(tens.size() - (int) tensExpired);
        assertThat(fineExpired).isPositive();
        assertThat(hoursExpired).isPositive();
        assertThat(windows.windows(KEYS, 0, Long.MAX_VALUE)).extracting(WindowCounts::windowEndMillis)
                .allMatch(end -> end > now - DAY).hasSize(fine.size() - (int) fineExpired);
        assertThat(windows.windowsStartingIn(Resolution.HOUR, 0, Long.MAX_VALUE))
                .hasSize(hours.size() - (int) hoursExpired);
        assertThat(windows.windowsStartingIn(Resolution.DAY, 0, Long.MAX_VALUE)).hasSize(days.size());
        // what is left still answers every range read exactly for the days that were rolled up
        assertThat(WindowReader.sum(windows.range(KEYS, T0, T0 + DAY)))
                .isEqualTo(fineSum(KEYS, T0, T0 + DAY));
    }

    @Test
    void deploymentsCarryTheirSampleWindow() {
        writer.writeInstances(List.of(
                new InstanceRecord("svc", "v1", "a", "h", 1, 0, Map.of(), 1_000, 5_000),
                new InstanceRecord("svc", "v1", "b", "h", 2, 0, Map.of(), 500, 4_000),
                new InstanceRecord("svc", "v2", "a", "h", 3, 0, Map.of(), 6_000, 9_000)));
        writer.writeInstances(List.of(new InstanceRecord("svc", "v1", "a", "h", 1, 0, Map.of(), 2_000, 7_000)));
        assertThat(catalogue.deployments("svc")).containsExactly(
                new DeploymentRecord("svc", "v1", 500, 7_000, 2), new DeploymentRecord("svc", "v2", 6_000, 9_000, 1));
        assertThat(catalogue.deployments("other")).isEmpty();
    }
}
