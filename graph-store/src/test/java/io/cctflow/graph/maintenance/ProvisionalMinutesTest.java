package io.cctflow.graph.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.Keys;
import io.cctflow.graph.RandomTrees;
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
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Provisional minute sums ({@link Rollups} with {@code provisionalMinutes}: the minutes that have
 * ended but are not settled yet, summed with the digest of their fine windows) on the real Neo4j,
 * checked brute force against the fine windows on random data: the pass writes them with their
 * {@code sources}, each equal to the fine windows starting in its minute; a read ending now uses
 * them while the fine windows are those they sum, and reads the fine windows of a minute where one
 * was rewritten or added since (a member's late batch, a member's window written late); a new
 * instance is read from its own windows; every read (plain and by groups, ranges ending now and
 * anywhere) equals the sum of the fine windows overlapping it; once a minute settles the next pass
 * writes its sum as a settled one (no {@code sources}).
 */
class ProvisionalMinutesTest extends CleanGraph {
    private static final long MINUTE = Resolution.MINUTE.millis();
    private static final long HOUR = Resolution.HOUR.millis();
    private static final long T0 = 1_700_006_400_000L; // a UTC midnight
    private static final long FIRST = T0 + 20 * MINUTE;
    /** Now: the minutes up to 1:39 settled (2 min), 1:40 and 1:41 ended and not settled, 1:42 on. */
    private static final long NOW = T0 + HOUR + 42 * MINUTE;
    private static final Duration SETTLE = Duration.ofMinutes(10);
    private static final Duration MINUTE_SETTLE = Duration.ofMinutes(2);
    private static final int GROUPS = 3;
    private static final String V1 = Keys.deploymentRollup("svc", "v1");
    private static final List<String> V1_KEYS = DeploymentMinutesTest.executions("v1", 10);
    private static final List<String> V2_KEYS = DeploymentMinutesTest.executions("v2", 3);

    private final List<WindowCounts> fine = new ArrayList<>();

    /** The stored minute sums (deployments' and groups'), {@code key@start} → their {@code sources} ("" if none). */
    private static Map<String, String> minuteSources() {
        try (var session = driver.session()) {
            Map<String, String> out = new TreeMap<>();
            session.run("""
                    MATCH (w:Window {resolution: $minute}) WHERE w.members IS NOT NULL
                    RETURN w.instance AS key, w.start AS start, coalesce(w.sources, '') AS sources
                    """, Map.of("minute", Resolution.MINUTE.property()))
                    .forEachRemaining(r -> out.put(r.get("key").asString() + "@" + r.get("start").asLong(),
                            r.get("sources").asString()));
            return out;
        }
    }

    /** The stored provisional minute sums (deployments' and groups'), {@code key@start} → their {@code written}. */
    private static Map<String, Long> provisionalWritten() {
        try (var session = driver.session()) {
            Map<String, Long> out = new TreeMap<>();
            session.run("""
                    MATCH (w:Window {resolution: $minute}) WHERE w.members IS NOT NULL AND w.sources IS NOT NULL
                    RETURN w.instance AS key, w.start AS start, w.written AS written
                    """, Map.of("minute", Resolution.MINUTE.property()))
                    .forEachRemaining(r -> out.put(r.get("key").asString() + "@" + r.get("start").asLong(),
                            r.get("written").asLong()));
            return out;
        }
    }

    /**
     * Every stored minute sum (deployments' and groups') equals the fine windows of its key
     * starting in its minute, with their executions as members; one with {@code sources} exactly
     * where its minute starts at or after {@code settledUntil}.
     */
    private void assertMinuteSums(long settledUntil) {
        Map<String, String> sources = minuteSources();
        List<DeploymentWindow> sums = new ArrayList<>(windows.deploymentWindowsStartingIn(Resolution.MINUTE, 0,
                Long.MAX_VALUE));
        sums.addAll(windows.groupWindowsStartingIn(Resolution.MINUTE, 0, Long.MAX_VALUE));
        assertThat(sums).isNotEmpty();
        for (DeploymentWindow d : sums) {
            WindowCounts w = d.window();
            UnaryOperator<String> keyOf = w.executionKey().equals(Keys.deploymentRollup(d.members().get(0)))
                    ? Keys::deploymentRollup : k -> Keys.instanceGroup(k, GROUPS);
            List<WindowCounts> parts = fine.stream().filter(f -> keyOf.apply(f.executionKey()).equals(w.executionKey())
                    && f.windowStartMillis() == w.windowStartMillis()).toList();
            String slot = w.executionKey() + "@" + w.windowStartMillis();
            assertThat(w.counts()).as(slot).isEqualTo(WindowReader.sum(parts));
            assertThat(d.members()).as(slot)
                    .isEqualTo(parts.stream().map(WindowCounts::executionKey).distinct().sorted().toList());
            assertThat(sources.get(slot).isEmpty()).as("settled: %s", slot)
                    .isEqualTo(w.windowStartMillis() < settledUntil);
        }
    }

    /** Ranges ending now (a "last N minutes" of any length) and a few ending anywhere in the data. */
    private static List<long[]> ranges(Random random, long now) {
        List<long[]> out = new ArrayList<>(List.of(new long[] {now - 3 * HOUR, now}, new long[] {now - 2 * MINUTE, now},
                new long[] {now - 90_000, now - 30_000}, new long[] {now - 30 * MINUTE, now}));
        for (int i = 0; i < 10; i++) {
            out.add(new long[] {now - 1 - random.nextLong(HOUR), now});
            long start = now - random.nextLong(10 * MINUTE);
            out.add(new long[] {start, start + 1 + random.nextLong(5 * MINUTE)});
        }
        return out;
    }

    /** Plain and by-groups reads equal the sum of the fine windows overlapping each range. */
    private void assertReadsEqualFineSums(List<List<String>> selections, Random random, String when, long now) {
        LiveHourSlotsTest.assertReadsEqualFineSums(fine, ranges(random, now), selections, when);
    }

    /** Writes one fine window of the execution over [start, end) made of the stacks; returns it. */
    private static WindowCounts writeWindow(String key, long start, long end, List<DeploymentMinutesTest.Stack> stacks,
            Random random) {
        Cct tree = DeploymentMinutesTest.subset(stacks, random);
        writeTopology(tree);
        WindowCounts w = new WindowCounts(key, start, end, RandomTrees.counts(tree));
        writer.writeWindowCounts(List.of(w));
        return w;
    }

    /** The minute roll-ups of v1's deployment a plan of v1 ending now reads, by start. */
    private static List<Long> v1Minutes(RangePlanner.Plan plan, long from) {
        return plan.rollups().stream().filter(s -> s.executionKey().equals(V1) && s.resolution() == Resolution.MINUTE
                && s.startMillis() >= from).map(WindowSpan::startMillis).sorted().toList();
    }

    @Test
    void minutesEndedButNotSettledAreReadFromTheirSumsWhileTheirFineWindowsAreThoseSummed() {
        Random random = new Random(311);
        List<DeploymentMinutesTest.Stack> stacks = DeploymentMinutesTest.stacks(random);
        fine.addAll(DeploymentMinutesTest.writeMinutes(V1_KEYS, FIRST, NOW + 3 * MINUTE, stacks, random, T0));
        fine.addAll(DeploymentMinutesTest.writeMinutes(V2_KEYS, FIRST, NOW + 3 * MINUTE, null, random, T0));
        List<String> v1 = V1_KEYS;
        List<String> all = new ArrayList<>(v1);
        all.addAll(V2_KEYS);
        Rollups rollups = new Rollups(driver, "", SETTLE, MINUTE_SETTLE, GROUPS, true);

        // 1:42: minutes up to 1:39 settled, 1:40 and 1:41 provisional, none from 1:42 (not ended)
        Rollups.Result first = rollups.rollUp(NOW);
        assertThat(first.minutes()).isEqualTo(12);
        assertMinuteSums(NOW - MINUTE_SETTLE.toMillis());
        assertThat(minuteSources()).containsKeys(V1 + "@" + (NOW - 2 * MINUTE), V1 + "@" + (NOW - MINUTE))
                .doesNotContainKey(V1 + "@" + NOW);
        // a "last 3 h" of v1 reads no fine window of v1: the two provisional minutes from their sums
        RangePlanner.Plan live = windows.plan(v1, NOW - 3 * HOUR, NOW);
        assertThat(v1Minutes(live, NOW - 2 * MINUTE)).containsExactly(NOW - 2 * MINUTE, NOW - MINUTE);
        assertThat(live.read()).noneMatch(w -> v1.contains(w.executionKey()));
        List<List<String>> selections = List.of(v1, all, v1.subList(2, 10), V2_KEYS, List.of(v1.get(0)));
        assertReadsEqualFineSums(selections, new Random(312), "after the first pass", NOW);

        // after the pass: a member's window of 1:41 rewritten (a late batch) and a new instance in 1:40
        String member = v1.get(3);
        fine.removeIf(w -> w.executionKey().equals(member) && w.windowStartMillis() == NOW - MINUTE);
        fine.add(writeWindow(member, NOW - MINUTE, NOW, stacks, random));
        String late = new ExecutionId("svc", "v1", "late").key();
        List<WindowCounts> lateWindows = DeploymentMinutesTest.writeMinutes(List.of(late), NOW - 2 * MINUTE,
                NOW - MINUTE, stacks, random, T0);
        fine.addAll(lateWindows);
        List<String> withLate = new ArrayList<>(v1);
        withLate.add(late);
        // 1:40 still from its sum (the late instance from its own window), 1:41 from the fine windows
        RangePlanner.Plan after = windows.plan(withLate, NOW - 3 * HOUR, NOW);
        assertThat(v1Minutes(after, NOW - 2 * MINUTE)).containsExactly(NOW - 2 * MINUTE);
        assertThat(after.read()).filteredOn(w -> w.executionKey().equals(late)).hasSize(lateWindows.size());
        assertThat(after.read()).filteredOn(w -> v1.contains(w.executionKey()))
                .allSatisfy(w -> assertThat(w.windowStartMillis()).isEqualTo(NOW - MINUTE)).isNotEmpty();
        List<List<String>> lateSelections = List.of(v1, withLate, List.of(late), List.of(member), all);
        assertReadsEqualFineSums(lateSelections, new Random(313), "after a late write", NOW);

        // an instance of v1 with no window in 1:40 gets one late: not a member of the 1:40 sum, which
        // stays in use, the new window read from the fine windows (as a late instance's)
        String nonMember = v1.stream().filter(k -> fine.stream().noneMatch(w -> w.executionKey().equals(k)
                && w.windowStartMillis() == NOW - 2 * MINUTE)).findFirst().orElseThrow();
        fine.add(writeWindow(nonMember, NOW - 2 * MINUTE, NOW - MINUTE, stacks, random));
        RangePlanner.Plan withNonMember = windows.plan(withLate, NOW - 3 * HOUR, NOW);
        assertThat(v1Minutes(withNonMember, NOW - 2 * MINUTE)).containsExactly(NOW - 2 * MINUTE);
        assertThat(withNonMember.read()).filteredOn(w -> w.executionKey().equals(nonMember)
                && w.windowStartMillis() < NOW - MINUTE) // its 1:41 window is read as every member's there
                .singleElement().satisfies(w -> assertThat(w.windowStartMillis()).isEqualTo(NOW - 2 * MINUTE));
        assertReadsEqualFineSums(lateSelections, new Random(314), "after a non-member's window came late", NOW);

        // a member of the 1:40 sum gets a second window in it (a 30 s one): 1:40 from the fine windows too
        String member40 = v1.stream().filter(k -> !k.equals(nonMember) && fine.stream().anyMatch(w -> w.executionKey()
                .equals(k) && w.windowStartMillis() == NOW - 2 * MINUTE)).findFirst().orElseThrow();
        fine.add(writeWindow(member40, NOW - 2 * MINUTE + 20_000, NOW - 2 * MINUTE + 50_000, stacks, random));
        assertThat(v1Minutes(windows.plan(withLate, NOW - 3 * HOUR, NOW), NOW - 2 * MINUTE)).isEmpty();
        assertReadsEqualFineSums(lateSelections, new Random(316), "after a member's second window came", NOW);

        // 1:44: 1:40 and 1:41 settle (summed again: 1:41 settled, 1:40 none, its 30 s window breaks the
        // whole-minute rule), 1:42 and 1:43 provisional
        rollups.rollUp(NOW + 2 * MINUTE);
        assertMinuteSums(NOW);
        assertThat(minuteSources()).containsKeys(V1 + "@" + NOW, V1 + "@" + (NOW + MINUTE))
                .doesNotContainKey(V1 + "@" + (NOW - 2 * MINUTE));
        RangePlanner.Plan later = windows.plan(withLate, NOW + 2 * MINUTE - 3 * HOUR, NOW + 2 * MINUTE);
        assertThat(v1Minutes(later, NOW - 2 * MINUTE)).containsExactly(NOW - MINUTE, NOW, NOW + MINUTE);
        assertThat(later.read()).filteredOn(w -> withLate.contains(w.executionKey())).isNotEmpty()
                .allSatisfy(w -> assertThat(w.windowStartMillis()).isBetween(NOW - 2 * MINUTE, NOW - MINUTE - 1));
        assertReadsEqualFineSums(lateSelections, new Random(315), "after the next pass", NOW + 2 * MINUTE);
    }

    @Test
    void aPassLeavesProvisionalSumsThatStillHoldAndSettlesThemAsTheyAre() {
        Random random = new Random(321);
        List<DeploymentMinutesTest.Stack> stacks = DeploymentMinutesTest.stacks(random);
        fine.addAll(DeploymentMinutesTest.writeMinutes(V1_KEYS, FIRST, NOW + 3 * MINUTE, stacks, random, T0));
        fine.addAll(DeploymentMinutesTest.writeMinutes(V2_KEYS, FIRST, NOW + 3 * MINUTE, stacks, random, T0));
        List<String> all = new ArrayList<>(V1_KEYS);
        all.addAll(V2_KEYS);
        List<List<String>> selections = List.of(V1_KEYS, all, V2_KEYS, V1_KEYS.subList(3, 8));
        Rollups rollups = new Rollups(driver, "", SETTLE, MINUTE_SETTLE, GROUPS, true);
        String at40 = V1 + "@" + (NOW - 2 * MINUTE);
        String at41 = V1 + "@" + (NOW - MINUTE);

        // 1:42: 1:40 and 1:41 summed provisionally; v2 (3 instances) gets no minute sums, they would
        // be nearly as big as their parts (Rollups.MINUTE_SHARE), so its minutes are never kept
        rollups.rollUp(NOW);
        assertThat(minuteSources()).containsKeys(at40, at41)
                .allSatisfy((slot, sources) -> assertThat(slot).doesNotStartWith(Keys.deploymentRollup("svc", "v2")));
        Map<String, Long> written = provisionalWritten();

        // 1:42:20, nothing written since: v1's two minutes kept, their sums not written again (the
        // settled ones are: the test's windows were all written within the last pass's write margin)
        Rollups.Result again = rollups.rollUp(NOW + 20_000);
        assertThat(again.minutesKept()).isEqualTo(2);
        assertThat(provisionalWritten()).isEqualTo(written);
        assertMinuteSums(NOW - MINUTE_SETTLE.toMillis());

        // a member's 1:41 window rewritten (a late batch): only v1's 1:41 sums are summed again
        String member = V1_KEYS.get(4);
        String group = Keys.instanceGroup(member, GROUPS);
        fine.removeIf(w -> w.executionKey().equals(member) && w.windowStartMillis() == NOW - MINUTE);
        fine.add(writeWindow(member, NOW - MINUTE, NOW, stacks, random));
        Rollups.Result late = rollups.rollUp(NOW + 40_000);
        assertThat(late.minutesKept()).isEqualTo(1);
        Map<String, Long> afterLate = provisionalWritten();
        written.forEach((slot, before) -> {
            boolean summedAgain = slot.equals(at41) || slot.equals(group + "@" + (NOW - MINUTE));
            assertThat(afterLate.get(slot)).as(slot).matches(w -> summedAgain ? w > before : w.equals(before));
        });
        assertMinuteSums(NOW - MINUTE_SETTLE.toMillis());
        assertReadsEqualFineSums(selections, new Random(322), "after a late batch", NOW);

        // 1:44: 1:40 and 1:41 settle as they are (their sources dropped, no sum again), 1:42 and 1:43 provisional
        Rollups.Result settled = rollups.rollUp(NOW + 2 * MINUTE);
        assertThat(settled.minutesKept()).isEqualTo(2);
        assertMinuteSums(NOW);
        assertThat(minuteSources()).containsEntry(at40, "").containsEntry(at41, "");
        RangePlanner.Plan plan = windows.plan(V1_KEYS, NOW + 2 * MINUTE - 3 * HOUR, NOW + 2 * MINUTE);
        assertThat(v1Minutes(plan, NOW - 2 * MINUTE)).containsExactly(NOW - 2 * MINUTE, NOW - MINUTE, NOW, NOW + MINUTE);
        assertThat(plan.read()).noneMatch(w -> V1_KEYS.contains(w.executionKey())); // no fine window of v1
        assertReadsEqualFineSums(selections, new Random(323), "after they settled", NOW + 2 * MINUTE);
    }

    @Test
    void aReadEndingAtASlotsStartBeforeThePassThereReadsTheMinuteSumsOfTheSlotTwoBefore() {
        Random random = new Random(331);
        List<DeploymentMinutesTest.Stack> stacks = DeploymentMinutesTest.stacks(random);
        long end = T0 + 2 * HOUR;
        fine.addAll(DeploymentMinutesTest.writeMinutes(V1_KEYS, FIRST, end, stacks, random, T0));
        // the last pass at 1:59: slots up to 1:30 summed, 1:40 not (it settles at 2:00), its minutes
        // summed (settled up to 1:56, 1:57 and 1:58 provisional), 1:59 not ended
        new Rollups(driver, "", SETTLE, MINUTE_SETTLE, GROUPS, true).rollUp(end - MINUTE);
        // "now" is 2:00, before the next pass: slot 1:40 is two before the end's
        RangePlanner.Plan plan = windows.plan(V1_KEYS, end - 3 * HOUR, end);
        assertThat(v1Minutes(plan, end - 20 * MINUTE)).hasSize(19).startsWith(end - 20 * MINUTE);
        assertThat(plan.read()).filteredOn(w -> V1_KEYS.contains(w.executionKey())).isNotEmpty()
                .allSatisfy(w -> assertThat(w.windowStartMillis()).isEqualTo(end - MINUTE));
        assertReadsEqualFineSums(List.of(V1_KEYS, V1_KEYS.subList(0, 4)), new Random(332), "before the pass", end);
    }
}
