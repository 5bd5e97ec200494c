package io.cctflow.graph.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.FineSums;
import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.Keys;
import io.cctflow.graph.RandomTrees;
import io.cctflow.graph.SelfCounts;
import io.cctflow.graph.read.RangePlanner;
import io.cctflow.graph.read.WindowCache;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Deployments' minute roll-ups ({@link Rollups}, {@code SlotSums}) on the real Neo4j: what the pass
 * writes (the sum of a minute's fine windows, only where it is much smaller than they are), and
 * that range reads using them, falling back to fine windows where none is stored, equal the sum of
 * the fine windows on random data and ranges that start and end anywhere, with late instances,
 * misaligned windows and retention.
 */
class DeploymentMinutesTest extends CleanGraph {
    private static final long MINUTE = Resolution.MINUTE.millis();
    private static final long HOUR = Resolution.HOUR.millis();
    private static final long T0 = 1_700_006_400_000L; // a UTC midnight
    private static final long FIRST = T0 + 10 * MINUTE;
    private static final long LAST = T0 + 3 * HOUR + 25 * MINUTE; // hour 3 is left unrolled by the pass at PASS
    private static final long PASS = T0 + 3 * HOUR + 15 * MINUTE; // settled 10 min after the end: hours 0-2
    /** At PASS, minutes are summed up to 2 min (the default minute settle) before it: in hour 3's first slot too. */
    private static final long MINUTES_END = PASS - Rollups.DEFAULT_MINUTE_SETTLE.toMillis();
    private static final String V1 = Keys.deploymentRollup("svc", "v1");

    private final List<WindowCounts> fine = new ArrayList<>();

    /** Keys of n executions i0, i1, ... of service svc (package-visible for the other roll-up tests). */
    static List<String> executions(String version, int n) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(new ExecutionId("svc", version, "i" + i).key());
        }
        return keys;
    }

    /**
     * One-minute windows of the executions over [from, to), one in eight missing. With {@code
     * stacks}, every window holds a random subset of those stacks with random counts (instances of
     * one busy deployment share their nodes); without, a random tree of its own.
     */
    private void writeMinutes(List<String> keys, long from, long to, List<Stack> stacks, Random random) {
        fine.addAll(writeMinutes(keys, from, to, stacks, random, T0));
    }

    /** {@link #writeMinutes(List, long, long, List, Random)}, instances started at {@code started}; returns the windows. */
    static List<WindowCounts> writeMinutes(List<String> keys, long from, long to, List<Stack> stacks, Random random,
            long started) {
        List<WindowCounts> written = new ArrayList<>();
        for (String key : keys) {
            ExecutionId e = ExecutionId.fromKey(key);
            writer.writeInstances(List.of(new InstanceRecord(e.service(), e.version(), e.instance(), "h", 1, started,
                    Map.of(), from, to)));
            for (long start = from; start < to; start += MINUTE) {
                if (random.nextInt(8) > 0) {
                    Cct tree = stacks == null ? RandomTrees.tree(random, 1 + random.nextInt(4)) : subset(stacks, random);
                    writeTopology(tree);
                    written.add(new WindowCounts(key, start, start + MINUTE, RandomTrees.counts(tree)));
                }
            }
        }
        writer.writeWindowCounts(written);
        return written;
    }

    /** Minutes of the executions over [FIRST, LAST) made of the stacks, rolled up at PASS; the pass's roll-ups. */
    private Rollups rolledUp(List<String> keys, List<Stack> stacks, Random random) {
        writeMinutes(keys, FIRST, LAST, stacks, random);
        Rollups rollups = new Rollups(driver, "", Duration.ofMinutes(10));
        rollups.rollUp(PASS);
        return rollups;
    }

    /** One call stack on one thread (package-visible for the other roll-up tests). */
    record Stack(long[] methods, int[] lines, String thread) {
    }

    static List<Stack> stacks(Random random) {
        List<Stack> out = new ArrayList<>();
        for (int s = 0; s < 10; s++) {
            int depth = 1 + random.nextInt(8);
            long[] methods = new long[depth];
            int[] lines = new int[depth];
            for (int d = 0; d < depth; d++) {
                methods[d] = 1 + random.nextInt(8) * 0x1234_5678_9ABCL;
                lines[d] = random.nextInt(3);
            }
            out.add(new Stack(methods, lines, RandomTrees.THREADS[random.nextInt(RandomTrees.THREADS.length)]));
        }
        return out;
    }

    static Cct subset(List<Stack> stacks, Random random) {
        Cct tree = new Cct(16);
        for (Stack s : stacks) {
            if (random.nextInt(4) > 0) {
                tree.addStack(s.methods(), s.lines(), s.methods().length, tree.thread(s.thread()), 1 + random.nextInt(20));
            }
        }
        return tree;
    }

    private TreeCounts fineSum(List<String> keys, long from, long to) {
        return FineSums.overlapping(fine, keys, from, to);
    }

    /** Ranges of any length starting and ending at any millisecond, some aligned to minutes, some tiny. */
    private static List<long[]> ranges(Random random) {
        List<long[]> out = new ArrayList<>(List.of(new long[] {T0, T0 + 4 * HOUR},
                new long[] {T0 + HOUR + 3 * MINUTE + 1, T0 + HOUR + 3 * MINUTE + 2},
                new long[] {T0 + HOUR + 13 * MINUTE + 500, T0 + 2 * HOUR + 37 * MINUTE - 500},
                new long[] {T0 + HOUR + 7 * MINUTE, T0 + HOUR + 9 * MINUTE}));
        for (int i = 0; i < 24; i++) {
            long from = T0 + random.nextLong(4 * HOUR);
            long length = 1 + random.nextLong(i % 3 == 0 ? 15 * MINUTE : 3 * HOUR);
            if (i % 4 == 1) {
                from = Resolution.MINUTE.floor(from);
                length = Resolution.MINUTE.ceil(length);
            }
            out.add(new long[] {from, from + length});
        }
        return out;
    }

    /**
     * Every stored minute window of a deployment equals its fine windows starting in that minute,
     * with their executions as members; and exactly the minutes the rule picks have one: rolled up,
     * two members or more, and rows (nodes and per-thread entries, as stored) at most a quarter of
     * their fine windows' rows.
     */
    private void assertMinutesFollowTheRule(long rolledUpUntil) {
        Map<String, List<WindowCounts>> byMinute = new TreeMap<>();
        for (WindowCounts w : fine) {
            if (w.windowStartMillis() < rolledUpUntil) {
                byMinute.computeIfAbsent(Keys.deploymentRollup(w.executionKey()) + "@" + w.windowStartMillis(),
                        k -> new ArrayList<>()).add(w);
            }
        }
        Set<String> expected = new TreeSet<>();
        byMinute.forEach((slot, parts) -> {
            long partRows = parts.stream().mapToLong(p -> rows(SelfCounts.project(p.counts()))).sum();
            if (parts.size() > 1 && rows(SelfCounts.project(WindowReader.sum(parts))) * Rollups.MINUTE_SHARE
                    <= partRows) {
                expected.add(slot);
            }
        });
        Set<String> stored = new TreeSet<>();
        for (DeploymentWindow d : windows.deploymentWindowsStartingIn(Resolution.MINUTE, 0, Long.MAX_VALUE)) {
            WindowCounts w = d.window();
            String slot = w.executionKey() + "@" + w.windowStartMillis();
            stored.add(slot);
            List<WindowCounts> parts = byMinute.getOrDefault(slot, List.of());
            assertThat(w.counts()).as(slot).isEqualTo(WindowReader.sum(parts));
            assertThat(d.members()).as(slot).isEqualTo(parts.stream().map(WindowCounts::executionKey).sorted().toList());
            assertThat(w.windowEndMillis() - w.windowStartMillis()).isEqualTo(MINUTE);
        }
        assertThat(stored).isEqualTo(expected);
    }

    static long rows(TreeCounts c) {
        return (long) c.nodeIds().length + c.threadNodeIds().length;
    }

    private void assertReadsEqualFineSums(WindowReader reader, List<List<String>> selections, Random random,
            String when) {
        assertReadsEqualFineSums(reader, selections, ranges(random), when);
    }

    private void assertReadsEqualFineSums(WindowReader reader, List<List<String>> selections, List<long[]> ranges,
            String when) {
        for (long[] r : ranges) {
            for (List<String> keys : selections) {
                RangePlanner.Plan plan = reader.plan(keys, r[0], r[1]);
                String what = String.format("%s: [%d, %d) ms of %d executions", when, r[0] - T0, r[1] - T0, keys.size());
                TreeCounts expected = fineSum(keys, r[0], r[1]);
                assertThat(plan.sum()).as(what).isEqualTo(expected);
                assertThat(WindowReader.sum(plan.read())).as(what).isEqualTo(expected);
            }
        }
    }

    @Test
    void minuteSumsOfBusyDeploymentsServeRangeEdgesAndReadsEqualTheFineWindows() {
        Random random = new Random(41);
        List<String> v1 = executions("v1", 12);
        List<String> v2 = executions("v2", 3);
        writeMinutes(v1, FIRST, LAST, stacks(random), random);
        writeMinutes(v2, FIRST, LAST, null, random); // unrelated trees: their sums are not small
        new Rollups(driver, "", Duration.ofMinutes(10)).rollUp(PASS);

        assertMinutesFollowTheRule(MINUTES_END);
        List<DeploymentWindow> minutes = windows.deploymentWindowsStartingIn(Resolution.MINUTE, 0, Long.MAX_VALUE);
        assertThat(minutes).hasSizeGreaterThan(150).allSatisfy(d -> {
            assertThat(d.window().executionKey()).isEqualTo(V1); // three trees of their own: never a quarter
            // hour 3 not rolled up: only the minutes of its slot not settled yet, up to the minute settle
            assertThat(d.window().windowStartMillis()).isLessThan(MINUTES_END);
        });

        List<String> all = new ArrayList<>(v1);
        all.addAll(v2);
        List<List<String>> selections = List.of(v1, all, v1.subList(1, 12), v2, List.of(v1.get(0)));
        assertReadsEqualFineSums(windows, selections, new Random(42), "plain");
        WindowCache cache = new WindowCache(1_000_000, 0); // settled at once: tests write just before reading
        WindowReader cached = new WindowReader(driver, "", cache);
        for (int round = 0; round < 2; round++) { // the second round from the cache
            assertReadsEqualFineSums(cached, selections, new Random(43), "cached, round " + round);
        }

        // a range of the whole of v1 starting and ending inside minutes of rolled-up hours reads
        // v1's roll-ups only: no fine window of an instance
        long from = T0 + HOUR + 3 * MINUTE + 17_000;
        long to = T0 + 2 * HOUR + 48 * MINUTE + 45_000;
        List<String> stored = minutes.stream().map(d -> d.window().windowStartMillis() + "").toList();
        if (stored.contains(Resolution.MINUTE.floor(from) + "") && stored.contains(Resolution.MINUTE.floor(to) + "")) {
            assertThat(windows.plan(v1, from, to).read()).isNotEmpty()
                    .allSatisfy(w -> assertThat(w.executionKey()).isEqualTo(V1));
        }
        assertThat(windows.plan(v1, from, to).rollups()).anyMatch(s -> s.resolution() == Resolution.MINUTE);
    }

    @Test
    void aLateInstanceIsReadFromItsOwnWindowsUntilThePassMakesItAMember() {
        Random random = new Random(51);
        List<Stack> stacks = stacks(random);
        List<String> v1 = executions("v1", 10);
        Rollups rollups = rolledUp(v1, stacks, random);
        String late = new ExecutionId("svc", "v1", "late").key();
        writeMinutes(List.of(late), T0 + HOUR + 2 * MINUTE, T0 + 2 * HOUR + 30 * MINUTE, stacks, random);
        List<String> withLate = new ArrayList<>(v1);
        withLate.add(late);
        List<List<String>> selections = List.of(v1, withLate, List.of(late));
        assertReadsEqualFineSums(windows, selections, new Random(52), "before the pass");

        rollups.rollUp(PASS); // the late windows were written since the last pass: their hours again
        assertMinutesFollowTheRule(MINUTES_END);
        assertThat(windows.deploymentWindowsStartingIn(Resolution.MINUTE, T0 + HOUR + 2 * MINUTE, T0 + 2 * HOUR))
                .anyMatch(d -> d.members().contains(late));
        assertReadsEqualFineSums(windows, selections, new Random(53), "after the pass");
    }

    @Test
    void aMinuteWithAFineWindowNotAlignedToItLosesItsSum() {
        Random random = new Random(61);
        List<Stack> stacks = stacks(random);
        List<String> v1 = executions("v1", 10);
        Rollups rollups = rolledUp(v1, stacks, random);
        List<DeploymentWindow> before = windows.deploymentWindowsStartingIn(Resolution.MINUTE, T0 + HOUR, T0 + 2 * HOUR);
        assertThat(before).isNotEmpty();
        long minute = before.get(before.size() / 2).window().windowStartMillis();

        // a window of another job configuration (30 s) starting inside that minute: a range ending
        // before it must not count it, which the minute's sum would
        String other = new ExecutionId("svc", "v1", "thirty-seconds").key();
        writer.writeInstances(List.of(new InstanceRecord("svc", "v1", "thirty-seconds", "h", 1, T0, Map.of(),
                minute, minute + MINUTE)));
        Cct tree = subset(stacks, random);
        writeTopology(tree);
        WindowCounts half = new WindowCounts(other, minute + 30_000, minute + MINUTE, RandomTrees.counts(tree));
        writer.writeWindowCounts(List.of(half));
        fine.add(half);
        rollups.rollUp(PASS);

        assertThat(windows.deploymentWindowsStartingIn(Resolution.MINUTE, minute, minute + 1)).isEmpty();
        assertThat(windows.deploymentWindowsStartingIn(Resolution.MINUTE, T0 + HOUR, T0 + 2 * HOUR))
                .hasSize(before.size() - 1);
        List<String> withOther = new ArrayList<>(v1);
        withOther.add(other);
        for (long[] r : List.of(new long[] {minute - 5 * MINUTE, minute + 10_000},
                new long[] {minute + 10_000, minute + 20 * MINUTE}, new long[] {minute + 40_000, minute + 50_000})) {
            assertThat(windows.plan(withOther, r[0], r[1]).sum()).as("[%d, %d)", r[0] - minute, r[1] - minute)
                    .isEqualTo(fineSum(withOther, r[0], r[1]));
        }
    }

    @Test
    void minuteSumsExpireWithTheFineWindows() {
        Random random = new Random(71);
        List<String> v1 = executions("v1", 10);
        writeMinutes(v1, FIRST, LAST, stacks(random), random);
        new Rollups(driver, "", Duration.ofMinutes(10)).rollUp(PASS);
        List<DeploymentWindow> minutes = windows.deploymentWindowsStartingIn(Resolution.MINUTE, 0, Long.MAX_VALUE);
        long now = T0 + 4 * HOUR;
        Retention retention = new Retention(driver, "", new RetentionPolicy(Duration.ofHours(2), Duration.ofDays(1),
                Duration.ofDays(3)));
        Map<Resolution, Long> deleted = retention.deleteExpired(now, 50);

        long cutoff = now - 2 * HOUR;
        Map<Boolean, Long> expired = new HashMap<>();
        for (DeploymentWindow d : minutes) {
            expired.merge(d.window().windowEndMillis() <= cutoff, 1L, Long::sum);
        }
        assertThat(expired.get(true)).isPositive();
        assertThat(expired.get(false)).isPositive();
        assertThat(deleted).containsEntry(Resolution.MINUTE, expired.get(true));
        assertThat(windows.deploymentWindowsStartingIn(Resolution.MINUTE, 0, Long.MAX_VALUE))
                .hasSize(expired.get(false).intValue())
                .allSatisfy(d -> assertThat(d.window().windowEndMillis()).isGreaterThan(cutoff));
        // what is left answers ranges after the cutoff exactly (before it, hourly windows hold more than is left)
        List<long[]> after = ranges(new Random(72)).stream().filter(r -> r[0] >= cutoff).toList();
        assertThat(after).isNotEmpty();
        assertReadsEqualFineSums(windows, List.of(v1), after, "after retention");
    }
}
