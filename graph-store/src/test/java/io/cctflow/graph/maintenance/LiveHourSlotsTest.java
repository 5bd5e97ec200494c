package io.cctflow.graph.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.graph.FineSums;
import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.Keys;
import io.cctflow.graph.RandomTrees;
import io.cctflow.graph.SelfCounts;
import io.cctflow.graph.read.RangePlanner;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import io.cctflow.model.WindowSpan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The ten-minute slots of an hour not settled yet, and the minutes of the slot not settled yet
 * ({@link Rollups}, "the live hour"), on the real Neo4j, checked brute force against the fine
 * windows on random data: each settled slot gets its deployment's and instance groups' ten-minute
 * and minute sums, and each minute settled by the minute settle its minute sums, equal to the fine
 * windows starting in it, while the hour's own roll-ups wait; a late window (a new instance, a
 * rewritten window) rolls its slot or minute up again at the next pass; reads of ranges ending
 * "now" use those sums and equal the sum of the fine windows; a slot's or the hour's roll-up leaves
 * the sums an earlier pass wrote, and no late window changed, as they are (their {@code written}
 * time kept); when the hour settles its roll-up is written as before.
 */
class LiveHourSlotsTest extends CleanGraph {
    private static final long MINUTE = Resolution.MINUTE.millis();
    private static final long HOUR = Resolution.HOUR.millis();
    private static final long T0 = 1_700_006_400_000L; // a UTC midnight
    private static final long FIRST = T0 + 20 * MINUTE;
    private static final long LAST = T0 + HOUR + 45 * MINUTE; // the samples job has written up to here
    /** Now: hour 0 settled; of hour 1 the slots ending 10 min before now, 1:00, 1:10 and 1:20. */
    private static final long NOW = T0 + HOUR + 42 * MINUTE;
    private static final long SLOTS_END = T0 + HOUR + 30 * MINUTE;
    private static final Duration SETTLE = Duration.ofMinutes(10);
    private static final Duration MINUTE_SETTLE = Duration.ofMinutes(2);
    /** At NOW, the minutes of the slot 1:30 that ended MINUTE_SETTLE before it: 1:30..1:39. */
    private static final long MINUTES_END = T0 + HOUR + 40 * MINUTE;
    private static final int GROUPS = 3;
    private static final String V1 = Keys.deploymentRollup("svc", "v1");
    private static final List<String> V1_KEYS = DeploymentMinutesTest.executions("v1", 10);
    private static final List<String> V2_KEYS = DeploymentMinutesTest.executions("v2", 3);

    private final List<WindowCounts> fine = new ArrayList<>();

    private void writeMinutes(List<String> keys, long from, long to, List<DeploymentMinutesTest.Stack> stacks,
            Random random) {
        fine.addAll(DeploymentMinutesTest.writeMinutes(keys, from, to, stacks, random, T0));
    }

    /**
     * Every stored sum of {@code r} (deployments' and instance groups') that starts before {@code
     * until} equals the fine windows of its key starting in its slot, with their executions as
     * members; exactly the slots before {@code until} the rules pick have one (two members or more;
     * minutes: also at most a quarter of their parts' rows); none starts at or after {@code until}.
     */
    private void assertSumsEqualTheirFineWindows(Resolution r, long until) {
        for (UnaryOperator<String> keyOf : List.<UnaryOperator<String>>of(Keys::deploymentRollup,
                k -> Keys.instanceGroup(k, GROUPS))) {
            Map<String, List<WindowCounts>> bySlot = new TreeMap<>();
            for (WindowCounts w : fine) {
                if (w.windowStartMillis() < until) {
                    bySlot.computeIfAbsent(keyOf.apply(w.executionKey()) + "@" + r.floor(w.windowStartMillis()),
                            k -> new ArrayList<>()).add(w);
                }
            }
            Set<String> expected = new TreeSet<>();
            bySlot.forEach((slot, parts) -> {
                long partRows = parts.stream().mapToLong(p -> DeploymentMinutesTest.rows(SelfCounts.project(p.counts())))
                        .sum();
                if (parts.stream().map(WindowCounts::executionKey).distinct().count() > 1
                        && (r != Resolution.MINUTE || DeploymentMinutesTest.rows(SelfCounts.project(
                                WindowReader.sum(parts))) * Rollups.MINUTE_SHARE <= partRows)) {
                    expected.add(slot);
                }
            });
            Set<String> stored = new TreeSet<>();
            List<DeploymentWindow> sums = new ArrayList<>(windows.deploymentWindowsStartingIn(r, 0, Long.MAX_VALUE));
            sums.addAll(windows.groupWindowsStartingIn(r, 0, Long.MAX_VALUE));
            for (DeploymentWindow d : sums) {
                WindowCounts w = d.window();
                String slot = w.executionKey() + "@" + w.windowStartMillis();
                if (!keyOf.apply(d.members().get(0)).equals(w.executionKey())) {
                    continue; // the other kind of sum
                }
                stored.add(slot);
                List<WindowCounts> parts = bySlot.getOrDefault(slot, List.of());
                assertThat(w.counts()).as("%s %s", r, slot).isEqualTo(WindowReader.sum(parts));
                assertThat(d.members()).as("%s %s", r, slot)
                        .isEqualTo(parts.stream().map(WindowCounts::executionKey).distinct().sorted().toList());
            }
            assertThat(stored).as("%s sums before %d", r, until - T0).isEqualTo(expected).isNotEmpty();
        }
    }

    /** v1 (instances sharing random stacks) and v2 (unrelated trees) over [FIRST, LAST); returns v1's stacks. */
    private List<DeploymentMinutesTest.Stack> writeFleet(Random random) {
        List<DeploymentMinutesTest.Stack> stacks = DeploymentMinutesTest.stacks(random);
        writeMinutes(V1_KEYS, FIRST, LAST, stacks, random);
        writeMinutes(V2_KEYS, FIRST, LAST, null, random);
        return stacks;
    }

    /** Rewrites the execution's fine window at {@code start} with other counts (a late batch); returns the start. */
    private long rewrite(String key, long start, List<DeploymentMinutesTest.Stack> stacks, Random random) {
        fine.removeIf(w -> w.executionKey().equals(key) && w.windowStartMillis() == start);
        Cct tree = DeploymentMinutesTest.subset(stacks, random);
        writeTopology(tree);
        WindowCounts rewritten = new WindowCounts(key, start, start + MINUTE, RandomTrees.counts(tree));
        writer.writeWindowCounts(List.of(rewritten));
        fine.add(rewritten);
        return start;
    }

    /** Ranges ending now (a "last N minutes" of any length) and a few ending anywhere in the data. */
    private static List<long[]> ranges(Random random, long now) {
        List<long[]> out = new ArrayList<>(List.of(new long[] {now - 3 * HOUR, now}, new long[] {T0 + HOUR, now},
                new long[] {now - 30 * MINUTE, now}));
        for (int i = 0; i < 12; i++) {
            long from = now - 1 - random.nextLong(2 * HOUR);
            out.add(new long[] {from, now});
            long start = T0 + random.nextLong(2 * HOUR);
            out.add(new long[] {start, start + 1 + random.nextLong(HOUR)});
        }
        return out;
    }

    /** Plain and by-groups reads equal the sum of the fine windows overlapping each range. */
    private void assertReadsEqualFineSums(List<List<String>> selections, Random random, String when) {
        assertReadsEqualFineSums(selections, random, when, NOW);
    }

    /** {@link #assertReadsEqualFineSums(List, Random, String)} with the ranges ending at {@code now}. */
    private void assertReadsEqualFineSums(List<List<String>> selections, Random random, String when, long now) {
        assertReadsEqualFineSums(fine, ranges(random, now), selections, when);
    }

    /**
     * Plain and by-groups ({@value #GROUPS} groups) reads of each range equal the sum of the
     * {@code fine} windows overlapping it (package-visible for the other live-edge tests).
     */
    static void assertReadsEqualFineSums(List<WindowCounts> fine, List<long[]> ranges, List<List<String>> selections,
            String when) {
        for (long[] r : ranges) {
            for (List<String> keys : selections) {
                String what = String.format("%s: [%d, %d) ms of %d executions", when, r[0] - T0, r[1] - T0, keys.size());
                var expected = FineSums.overlapping(fine, keys, r[0], r[1]);
                RangePlanner.Plan plan = windows.plan(keys, r[0], r[1]);
                assertThat(plan.sum()).as(what).isEqualTo(expected);
                assertThat(WindowReader.sum(plan.read())).as(what).isEqualTo(expected);
                assertThat(windows.planByGroups(keys, r[0], r[1], GROUPS).sum()).as("by groups, " + what)
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void settledSlotsOfTheLiveHourGetTheirSumsAndReadsEndingNowEqualTheFineWindows() {
        Random random = new Random(91);
        List<DeploymentMinutesTest.Stack> stacks = writeFleet(random);
        List<String> v1 = V1_KEYS;
        List<String> v2 = V2_KEYS;
        // minutes wait for their slot (minute settle = settle): the slots alone
        Rollups rollups = new Rollups(driver, "", SETTLE, SETTLE, GROUPS);

        Rollups.Result first = rollups.rollUp(NOW);
        assertThat(first.minutes()).isZero();
        assertThat(first.hours()).isEqualTo(1);
        assertThat(first.slots()).isEqualTo(3);
        // the live hour's own roll-ups wait for the hour to settle
        assertThat(windows.windowsStartingIn(Resolution.HOUR, T0 + HOUR, T0 + 2 * HOUR)).isEmpty();
        assertThat(windows.deploymentWindowsStartingIn(Resolution.HOUR, T0 + HOUR, T0 + 2 * HOUR)).isEmpty();
        assertThat(windows.groupWindowsStartingIn(Resolution.HOUR, T0 + HOUR, T0 + 2 * HOUR)).isEmpty();
        assertSumsEqualTheirFineWindows(Resolution.TEN_MINUTES, SLOTS_END);
        assertSumsEqualTheirFineWindows(Resolution.MINUTE, SLOTS_END);
        assertThat(windows.deploymentWindowsStartingIn(Resolution.TEN_MINUTES, T0 + HOUR, SLOTS_END)
                .stream().filter(d -> d.window().executionKey().equals(V1))).hasSize(3);

        List<String> all = new ArrayList<>(v1);
        all.addAll(v2);
        List<List<String>> selections = List.of(v1, all, v1.subList(2, 10), v2, List.of(v1.get(0)));
        assertReadsEqualFineSums(selections, new Random(92), "after the first pass");

        // a whole v1 from the live hour's start to now: v1's slot sums, fine windows only after them
        RangePlanner.Plan live = windows.plan(v1, T0 + HOUR, NOW);
        assertThat(live.rollups()).filteredOn(s -> s.executionKey().equals(V1))
                .extracting(WindowSpan::resolution).containsOnly(Resolution.TEN_MINUTES).hasSize(3);
        assertThat(live.read()).filteredOn(w -> !w.executionKey().equals(V1)).isNotEmpty()
                .allSatisfy(w -> assertThat(w.windowStartMillis()).isGreaterThanOrEqualTo(SLOTS_END));

        // late: a new instance in slots 1:00 and 1:10, and a member's window of slot 1:00 rewritten
        String late = new ExecutionId("svc", "v1", "late").key();
        writeMinutes(List.of(late), T0 + HOUR + 2 * MINUTE, T0 + HOUR + 15 * MINUTE, stacks, random);
        long rewrittenStart = rewrite(v1.get(0), T0 + HOUR + 5 * MINUTE, stacks, random);
        List<String> withLate = new ArrayList<>(v1);
        withLate.add(late);

        Rollups.Result again = rollups.rollUp(NOW + 5 * MINUTE); // no new slot settled: the late ones again
        assertThat(again.slots()).isGreaterThanOrEqualTo(2);
        assertSumsEqualTheirFineWindows(Resolution.TEN_MINUTES, SLOTS_END);
        assertSumsEqualTheirFineWindows(Resolution.MINUTE, SLOTS_END);
        assertThat(windows.deploymentWindowsStartingIn(Resolution.TEN_MINUTES, T0 + HOUR, T0 + HOUR + 1))
                .filteredOn(d -> d.window().executionKey().equals(V1))
                .singleElement().satisfies(d -> assertThat(d.members()).contains(late));
        assertReadsEqualFineSums(List.of(v1, withLate, List.of(late)), new Random(93), "after a late pass");

        // the hour settles: its roll-ups as before, and the slots' sums hold the same
        rollups.rollUp(T0 + 2 * HOUR + SETTLE.toMillis());
        assertThat(windows.deploymentWindowsStartingIn(Resolution.HOUR, T0 + HOUR, T0 + 2 * HOUR))
                .filteredOn(d -> d.window().executionKey().equals(V1)).singleElement()
                .satisfies(d -> assertThat(d.window().counts()).isEqualTo(FineSums.overlapping(fine, withLate,
                        T0 + HOUR, T0 + 2 * HOUR)));
        assertSumsEqualTheirFineWindows(Resolution.TEN_MINUTES, T0 + 2 * HOUR);
        assertReadsEqualFineSums(List.of(withLate, List.of(v1.get(0))), new Random(94), "after the hour settled");
    }

    /** Per deployment or group sum of ten minutes or a minute ({@code key@resolution@start}): its {@code written}. */
    private static Map<String, Long> writtenOfSums() {
        try (var session = driver.session()) {
            Map<String, Long> out = new TreeMap<>();
            session.run("""
                    MATCH (w:Window) WHERE w.members IS NOT NULL AND w.resolution IN $resolutions
                    RETURN w.instance AS key, w.resolution AS resolution, w.start AS start, w.written AS written
                    """, Map.of("resolutions", List.of(Resolution.TEN_MINUTES.property(), Resolution.MINUTE.property())))
                    .forEachRemaining(r -> out.put(r.get("key").asString() + "@" + r.get("resolution").asString() + "@"
                            + r.get("start").asLong(), r.get("written").asLong()));
            return out;
        }
    }

    /**
     * The sums of {@code before} that hold no fine window of {@code lateStarts} (a minute sum: none
     * starting in its minute; a ten-minute sum: none in its slot) are still stored, with the same
     * {@code written}: no pass rewrote them.
     */
    private static void assertUntouchedBut(Map<String, Long> before, Set<Long> lateStarts, String when) {
        Map<String, Long> now = writtenOfSums();
        int kept = 0;
        for (Map.Entry<String, Long> e : before.entrySet()) {
            String[] parts = e.getKey().split("@");
            Resolution r = parts[1].equals(Resolution.MINUTE.property()) ? Resolution.MINUTE : Resolution.TEN_MINUTES;
            long start = Long.parseLong(parts[2]);
            if (lateStarts.stream().noneMatch(s -> r.floor(s) == start)) {
                assertThat(now.get(e.getKey())).as("%s: written of %s", when, e.getKey()).isEqualTo(e.getValue());
                kept++;
            }
        }
        assertThat(kept).as(when).isPositive();
    }

    @Test
    void minutesOfTheSlotNotSettledGetTheirSumsAndLaterPassesKeepWhatNoLateWindowChanged() {
        Random random = new Random(95);
        List<DeploymentMinutesTest.Stack> stacks = writeFleet(random);
        List<String> v1 = V1_KEYS;
        List<String> v2 = V2_KEYS;
        // written 10 min ago (as a live job wrote them, a minute at a time): not late for the passes below
        try (var session = driver.session()) {
            session.run("MATCH (w:Window {resolution: $fine}) SET w.written = w.written - $back",
                    Map.of("fine", Resolution.FINE.property(), "back", 10 * MINUTE)).consume();
        }
        Rollups rollups = new Rollups(driver, "", SETTLE, MINUTE_SETTLE, GROUPS);
        List<String> all = new ArrayList<>(v1);
        all.addAll(v2);

        // 1:42: hour 0 and slots 1:00-1:20 as before, and the minutes 1:30..1:39 of the slot not settled
        Rollups.Result first = rollups.rollUp(NOW);
        assertThat(first.slots()).isEqualTo(3);
        assertThat(first.minutes()).isEqualTo(10);
        assertSumsEqualTheirFineWindows(Resolution.TEN_MINUTES, SLOTS_END);
        assertSumsEqualTheirFineWindows(Resolution.MINUTE, MINUTES_END);
        // a "last 3 h" of v1 reads fine windows of the last two minutes only (those not settled yet)
        RangePlanner.Plan live = windows.plan(v1, NOW - 3 * HOUR, NOW);
        assertThat(live.rollups()).filteredOn(s -> s.executionKey().equals(V1) && s.startMillis() >= SLOTS_END)
                .extracting(WindowSpan::resolution).containsOnly(Resolution.MINUTE).hasSize(10);
        assertThat(live.read()).filteredOn(w -> !w.executionKey().equals(V1)).isNotEmpty()
                .allSatisfy(w -> assertThat(w.windowStartMillis()).isGreaterThanOrEqualTo(MINUTES_END));
        List<List<String>> selections = List.of(v1, all, v1.subList(2, 10), v2, List.of(v1.get(0)));
        assertReadsEqualFineSums(selections, new Random(96), "after the first pass", NOW);
        Map<String, Long> afterFirst = writtenOfSums();

        // late: a new instance in the minutes 1:32..1:36 (summed already, their slot not settled) and
        // a member's window of the settled slot 1:00 rewritten
        Set<Long> lateStarts = new TreeSet<>();
        String late = new ExecutionId("svc", "v1", "late").key();
        List<WindowCounts> lateWindows = DeploymentMinutesTest.writeMinutes(List.of(late), T0 + HOUR + 32 * MINUTE,
                T0 + HOUR + 37 * MINUTE, stacks, random, T0);
        fine.addAll(lateWindows);
        lateWindows.forEach(w -> lateStarts.add(w.windowStartMillis()));
        long rewrittenStart = rewrite(v1.get(0), T0 + HOUR + 5 * MINUTE, stacks, random);
        lateStarts.add(rewrittenStart);
        List<String> withLate = new ArrayList<>(v1);
        withLate.add(late);
        List<List<String>> lateSelections = List.of(v1, withLate, List.of(late), List.of(v1.get(0)));

        // 1:43: one new minute (1:40) and the late minutes and slot again
        Rollups.Result second = rollups.rollUp(NOW + MINUTE);
        assertThat(second.slots()).isEqualTo(1);
        assertThat(second.minutes()).isEqualTo(1 + lateWindows.size());
        assertSumsEqualTheirFineWindows(Resolution.TEN_MINUTES, SLOTS_END);
        assertSumsEqualTheirFineWindows(Resolution.MINUTE, MINUTES_END + MINUTE);
        assertReadsEqualFineSums(lateSelections, new Random(97), "after a late pass", NOW + MINUTE);
        assertUntouchedBut(afterFirst, lateStarts, "after a late pass");

        // 1:50: the slot 1:30 settles; its minutes are left as the minute passes wrote them
        Rollups.Result third = rollups.rollUp(T0 + HOUR + 50 * MINUTE);
        assertThat(third.slots()).isGreaterThanOrEqualTo(1);
        assertSumsEqualTheirFineWindows(Resolution.TEN_MINUTES, T0 + HOUR + 40 * MINUTE);
        assertSumsEqualTheirFineWindows(Resolution.MINUTE, LAST);
        assertUntouchedBut(afterFirst, lateStarts, "after the slot settled");
        assertReadsEqualFineSums(lateSelections, new Random(98), "after the slot settled", T0 + HOUR + 50 * MINUTE);

        // 2:10: the hour settles; its roll-up leaves the slots' and minutes' sums as they are
        Map<String, Long> beforeHour = writtenOfSums();
        rollups.rollUp(T0 + 2 * HOUR + SETTLE.toMillis());
        assertThat(windows.deploymentWindowsStartingIn(Resolution.HOUR, T0 + HOUR, T0 + 2 * HOUR))
                .filteredOn(d -> d.window().executionKey().equals(V1)).singleElement()
                .satisfies(d -> assertThat(d.window().counts()).isEqualTo(FineSums.overlapping(fine, withLate,
                        T0 + HOUR, T0 + 2 * HOUR)));
        assertSumsEqualTheirFineWindows(Resolution.TEN_MINUTES, T0 + 2 * HOUR);
        assertSumsEqualTheirFineWindows(Resolution.MINUTE, T0 + 2 * HOUR);
        assertUntouchedBut(beforeHour, lateStarts, "after the hour settled");
        assertReadsEqualFineSums(lateSelections, new Random(99), "after the hour settled",
                T0 + 2 * HOUR + SETTLE.toMillis());
    }
}
