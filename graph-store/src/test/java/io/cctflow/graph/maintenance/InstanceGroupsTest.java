package io.cctflow.graph.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.FineSums;
import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.Keys;
import io.cctflow.graph.SelfCounts;
import io.cctflow.graph.read.RangePlanner;
import io.cctflow.graph.read.WindowCache;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Instance groups' roll-ups ({@link Rollups}, {@link Keys#instanceGroup}) on the real Neo4j, checked
 * brute force against the fine windows on random data: every group sum at every resolution equals
 * its members' fine windows summed, exactly the slots the rules pick have one (two members or more;
 * for minutes, also a quarter of the rows), late instances join their group at the next pass,
 * retention deletes them as it deletes the deployments' sums, and a range read by groups ({@link
 * RangePlanner.Plan#readSummedByGroup}) gives each group's fine windows summed over the range.
 */
class InstanceGroupsTest extends CleanGraph {
    private static final long MINUTE = Resolution.MINUTE.millis();
    private static final long HOUR = Resolution.HOUR.millis();
    private static final long DAY = Resolution.DAY.millis();
    private static final long T0 = 1_700_006_400_000L; // a UTC midnight
    private static final long FIRST = T0 + 10 * MINUTE;
    private static final long LAST = T0 + 2 * HOUR + 25 * MINUTE;
    private static final long PASS = T0 + DAY + HOUR; // every hour of day 0 and the day itself rolled up
    private static final int GROUPS = 4;

    private final List<WindowCounts> fine = new ArrayList<>();

    private static List<String> executions(String version, int n) {
        return DeploymentMinutesTest.executions(version, n);
    }

    private void writeMinutes(List<String> keys, long from, long to, List<DeploymentMinutesTest.Stack> stacks,
            Random random) {
        fine.addAll(DeploymentMinutesTest.writeMinutes(keys, from, to, stacks, random, T0));
    }

    /**
     * Every stored group roll-up of {@code r} equals the fine windows of its group starting in it,
     * its members are their executions, and exactly the slots of two executions or more have one
     * (minutes: also at most a quarter of their parts' rows).
     */
    private void assertGroupSumsEqualTheirFineWindows(Resolution r) {
        Map<String, List<WindowCounts>> bySlot = new TreeMap<>();
        for (WindowCounts w : fine) {
            bySlot.computeIfAbsent(Keys.instanceGroup(w.executionKey(), GROUPS) + "@" + r.floor(w.windowStartMillis()),
                    k -> new ArrayList<>()).add(w);
        }
        Set<String> expected = new TreeSet<>();
        bySlot.forEach((slot, parts) -> {
            long members = parts.stream().map(WindowCounts::executionKey).distinct().count();
            long partRows = parts.stream().mapToLong(p -> DeploymentMinutesTest.rows(SelfCounts.project(p.counts())))
                    .sum();
            if (members > 1 && (r != Resolution.MINUTE || DeploymentMinutesTest.rows(SelfCounts.project(
                    WindowReader.sum(parts))) * Rollups.MINUTE_SHARE <= partRows)) {
                expected.add(slot);
            }
        });
        Set<String> stored = new TreeSet<>();
        for (DeploymentWindow d : windows.groupWindowsStartingIn(r, 0, Long.MAX_VALUE)) {
            WindowCounts w = d.window();
            String slot = w.executionKey() + "@" + w.windowStartMillis();
            stored.add(slot);
            List<WindowCounts> parts = bySlot.getOrDefault(slot, List.of());
            assertThat(w.counts()).as("%s %s", r, slot).isEqualTo(WindowReader.sum(parts));
            assertThat(d.members()).as("%s %s", r, slot)
                    .isEqualTo(parts.stream().map(WindowCounts::executionKey).distinct().sorted().toList());
            assertThat(w.windowEndMillis() - w.windowStartMillis()).isEqualTo(r.millis());
        }
        assertThat(stored).as("%s group roll-ups", r).isEqualTo(expected);
        assertThat(stored).as("%s group roll-ups", r).isNotEmpty();
    }

    /** Reads by groups: the sum equals the fine windows', and each group's row its members' fine windows. */
    private void assertReadsByGroupEqualFineSums(WindowReader reader, List<List<String>> selections, Random random,
            String when) {
        for (int i = 0; i < 16; i++) {
            long from = i == 0 ? T0 : T0 + random.nextLong(3 * HOUR);
            long to = i == 0 ? T0 + DAY : from + 1 + random.nextLong(i % 3 == 0 ? 20 * MINUTE : 3 * HOUR);
            for (List<String> keys : selections) {
                String what = String.format("%s: [%d, %d) ms of %d executions", when, from - T0, to - T0, keys.size());
                RangePlanner.Plan plan = reader.planByGroups(keys, from, to, GROUPS);
                assertThat(plan.sum()).as(what).isEqualTo(FineSums.overlapping(fine, keys, from, to));
                Map<String, TreeCounts> expected = new TreeMap<>();
                keys.stream().collect(Collectors.groupingBy(k -> Keys.instanceGroup(k, GROUPS))).forEach((g, members) -> {
                    TreeCounts sum = FineSums.overlapping(fine, members, from, to);
                    if (sum.nodeIds().length > 0) {
                        expected.put(g, sum);
                    }
                });
                Map<String, TreeCounts> summed = new TreeMap<>();
                for (WindowCounts w : plan.readSummedByGroup()) {
                    assertThat(summed.put(w.executionKey(), w.counts())).as("%s: one row per group", what).isNull();
                }
                assertThat(summed).as(what).isEqualTo(expected);
            }
        }
    }

    @Test
    void groupSumsEqualTheirFineWindowsAndReadsByGroupEqualPerGroupFineSums() {
        for (long seed : new long[] {81, 82}) { // two data sets, side by side in the store
            Random random = new Random(seed);
            List<String> v1 = executions("v1-" + seed, 14);
            List<String> v2 = executions("v2-" + seed, 5);
            writeMinutes(v1, FIRST, LAST, DeploymentMinutesTest.stacks(random), random);
            writeMinutes(v2, FIRST, LAST, null, random);
            Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10), GROUPS);
            rollups.rollUp(PASS);
            for (Resolution r : List.of(Resolution.MINUTE, Resolution.TEN_MINUTES, Resolution.HOUR, Resolution.DAY)) {
                assertGroupSumsEqualTheirFineWindows(r);
            }
            List<String> all = new ArrayList<>(v1);
            all.addAll(v2);
            List<List<String>> selections = List.of(v1, all, v1.subList(1, 14), v2, List.of(v1.get(0)));
            assertReadsByGroupEqualFineSums(windows, selections, new Random(seed + 100), "plain, seed " + seed);
            WindowReader cached = new WindowReader(driver, "", new WindowCache(1_000_000, 0));
            for (int round = 0; round < 2; round++) {
                assertReadsByGroupEqualFineSums(cached, selections, new Random(seed + 200),
                        "cached, round " + round + ", seed " + seed);
            }
            // a whole deployment over rolled-up hours reads its groups' sums, not its deployment sum
            RangePlanner.Plan hours = windows.planByGroups(v1, T0, T0 + 2 * HOUR, GROUPS);
            assertThat(hours.readsInstanceGroups()).isTrue();
            assertThat(hours.rollups()).noneMatch(s -> s.executionKey().equals(Keys.deploymentRollup(v1.get(0))));
            assertThat(windows.plan(v1, T0, T0 + 2 * HOUR).readsInstanceGroups()).isFalse();

            // a late instance of v1 in rolled-up hours: read from its own windows, then a member of its group
            String late = new ExecutionId("svc", "v1-" + seed, "late").key();
            writeMinutes(List.of(late), T0 + HOUR + 2 * MINUTE, T0 + 2 * HOUR + 30 * MINUTE, null, random);
            List<String> withLate = new ArrayList<>(v1);
            withLate.add(late);
            assertReadsByGroupEqualFineSums(windows, List.of(withLate, v1), new Random(seed + 300), "late, before");
            rollups.rollUp(PASS);
            for (Resolution r : List.of(Resolution.MINUTE, Resolution.TEN_MINUTES, Resolution.HOUR, Resolution.DAY)) {
                assertGroupSumsEqualTheirFineWindows(r);
            }
            assertThat(windows.groupWindowsStartingIn(Resolution.HOUR, 0, Long.MAX_VALUE))
                    .anyMatch(d -> d.members().contains(late));
            assertReadsByGroupEqualFineSums(windows, List.of(withLate, v1), new Random(seed + 400), "late, after");
        }
    }

    @Test
    void groupSumsAreKeptApartFromTheDeploymentsAndUnderTheirNumberOfGroups() {
        String a = new ExecutionId("svc", "v1", "a").key();
        assertThat(Keys.instanceGroup(a, 16)).isNotEqualTo(Keys.deploymentRollup(a)).isNotEqualTo(a)
                .isNotEqualTo(Keys.instanceGroup(a, 8));
        assertThat(Keys.isInstanceGroup(Keys.instanceGroup(a, 16))).isTrue();
        assertThat(Keys.isInstanceGroup(Keys.deploymentRollup(a))).isFalse();
        assertThat(Keys.isInstanceGroup(a)).isFalse();
        assertThat(Keys.instanceGroup(Keys.instanceGroup(a, 16), 16)).isEqualTo(Keys.instanceGroup(a, 16));
        assertThat(Keys.deploymentRollup(Keys.instanceGroup(a, 16))).isEqualTo(Keys.deploymentRollup(a));
        // spread: 1,000 instances fill 16 groups with 40 to 90 each (expected 62.5)
        Map<Integer, Long> sizes = new TreeMap<>();
        for (int i = 0; i < 1000; i++) {
            sizes.merge(Keys.groupOf(new ExecutionId("svc", "v1", "pod-" + i).key(), 16), 1L, Long::sum);
        }
        assertThat(sizes).hasSize(16).allSatisfy((g, n) -> assertThat(n).isBetween(40L, 90L));
    }

    @Test
    void groupSumsExpireWithTheDeploymentsSums() {
        Random random = new Random(91);
        List<String> v1 = executions("v1", 24); // ~6 a group: minute sums a quarter of their parts' rows
        writeMinutes(v1, FIRST, LAST, DeploymentMinutesTest.stacks(random), random);
        new Rollups(driver, "", Duration.ofMinutes(10), GROUPS).rollUp(PASS);
        Map<Resolution, Integer> before = new TreeMap<>();
        Map<Resolution, Long> expired = new TreeMap<>();
        long now = T0 + 4 * HOUR;
        long cutoff = now - 2 * HOUR; // fine windows and minutes kept 2 h, ten minutes too, hours 1 day
        for (Resolution r : List.of(Resolution.MINUTE, Resolution.TEN_MINUTES)) {
            List<DeploymentWindow> all = new ArrayList<>(windows.groupWindowsStartingIn(r, 0, Long.MAX_VALUE));
            all.addAll(windows.deploymentWindowsStartingIn(r, 0, Long.MAX_VALUE));
            before.put(r, windows.groupWindowsStartingIn(r, 0, Long.MAX_VALUE).size());
            assertThat(before.get(r)).as("%s group roll-ups", r).isPositive();
            expired.put(r, all.stream().filter(d -> d.window().windowEndMillis() <= cutoff).count());
        }
        Map<Resolution, Long> deleted = new Retention(driver, "", new RetentionPolicy(Duration.ofHours(2),
                Duration.ofDays(1), Duration.ofDays(3))).deleteExpired(now, 50);
        for (Resolution r : List.of(Resolution.MINUTE, Resolution.TEN_MINUTES)) {
            assertThat(deleted.get(r)).as("%s", r).isEqualTo(expired.get(r)).isPositive();
            assertThat(windows.groupWindowsStartingIn(r, 0, Long.MAX_VALUE)).as("%s", r)
                    .hasSizeLessThan(before.get(r))
                    .allSatisfy(d -> assertThat(d.window().windowEndMillis()).isGreaterThan(cutoff));
        }
        // what is left answers ranges after the cutoff exactly, by groups too
        for (long from = cutoff; from < LAST; from += 7 * MINUTE + 13_000) {
            long to = Math.min(LAST, from + 41 * MINUTE);
            assertThat(windows.planByGroups(v1, from, to, GROUPS).sum()).isEqualTo(FineSums.overlapping(fine, v1, from, to));
        }
    }
}
