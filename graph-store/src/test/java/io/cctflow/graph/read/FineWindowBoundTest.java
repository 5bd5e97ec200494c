package io.cctflow.graph.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.FineSums;
import io.cctflow.graph.FineWindowBound;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.RandomTrees;
import io.cctflow.graph.maintenance.Rollups;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.WindowCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Session;
import org.neo4j.driver.Value;

/**
 * Range reads look back for fine windows only as far as the longest one recorded ({@link
 * FineWindowBound}): windows of several lengths, written in batches of mixed lengths, each read
 * back by ranges that start inside them (down to their last millisecond) and compared with the
 * brute-force sum of the windows written; on a store without the record, and racing writers. And
 * the record of whether a fine window crosses a minute, without which a read looks for one before
 * each roll-up that covers its start.
 */
class FineWindowBoundTest extends CleanGraph {
    private static final long MINUTE = 60_000;
    private static final long HOUR = 60 * MINUTE;
    private static final long T0 = 1_700_006_400_000L; // a UTC midnight
    /** Window lengths: shorter and longer than the fallback look-back of an hour, one not a whole minute. */
    private static final long[] LENGTHS = {1_000, MINUTE, 7 * MINUTE + 13, 25 * MINUTE, 60 * MINUTE, 150 * MINUTE};
    private static final List<String> KEYS = List.of(new ExecutionId("svc", "v1", "a").key(),
            new ExecutionId("svc", "v1", "b").key(), new ExecutionId("svc", "v2", "c").key());
    /** The selections reads are checked for: all executions, one, and two of different deployments. */
    private static final List<List<String>> SELECTIONS = List.of(KEYS, KEYS.subList(0, 1), KEYS.subList(1, 3));

    /** The windows written, the last write of each (execution, start) kept. */
    private final Map<String, WindowCounts> written = new LinkedHashMap<>();

    @Test
    void aWindowLongerThanTheRecordedBoundIsNeverMissed() {
        Random random = new Random(47);
        assertThat(recorded()).as("an empty store records 0").isEqualTo(0L);
        long longest = 0;
        // lengths in random order, so batches both raise the bound and stay under it
        for (int batch = 0; batch < 12; batch++) {
            List<WindowCounts> windows = randomWindows(random, 1 + random.nextInt(LENGTHS.length));
            writer.writeWindowCounts(windows);
            remember(windows);
            longest = Math.max(longest, windows.stream().mapToLong(FineWindowBoundTest::length).max().orElseThrow());
            assertThat(recorded()).as("after batch %d", batch).isEqualTo(longest);
            checkReadsInside(random, windows);
        }
        // roll-ups cover the hours; fine windows that start before a rolled-up range still count
        new Rollups(driver, "", Duration.ofMinutes(10)).rollUp(T0 + 27 * HOUR);
        checkReadsInside(random, List.copyOf(written.values()));
    }

    @Test
    void aStoreWithoutTheRecordReadsAsBeforeUntilEnsureRecordsIt() {
        Random random = new Random(53);
        List<WindowCounts> windows = new ArrayList<>();
        for (long length : new long[] {MINUTE, 50 * MINUTE}) {
            windows.addAll(randomWindows(random, length, KEYS));
        }
        writer.writeWindowCounts(windows);
        remember(windows);
        forget(); // as written before the record existed
        checkReadsInside(random, windows);

        List<WindowCounts> shorter = randomWindows(random, 5 * MINUTE, KEYS);
        writer.writeWindowCounts(shorter);
        remember(shorter);
        assertThat(recorded()).as("under the fallback hour nothing is recorded").isNull();
        checkReadsInside(random, shorter);

        List<WindowCounts> longer = randomWindows(random, 90 * MINUTE, KEYS);
        writer.writeWindowCounts(longer);
        remember(longer);
        assertThat(recorded()).as("a window longer than the fallback is recorded").isEqualTo(90 * MINUTE);
        checkReadsInside(random, longer);

        forget();
        GraphSchema.ensure(driver, "");
        assertThat(recorded()).as("ensure records the longest stored").isEqualTo(90 * MINUTE);
        checkReadsInside(random, List.copyOf(written.values()));
    }

    @Test
    void ensureRecordsTheLongestStoredWindowOnAnOldStore() {
        Random random = new Random(59);
        List<WindowCounts> windows = new ArrayList<>(randomWindows(random, MINUTE, KEYS));
        windows.addAll(randomWindows(random, 3 * MINUTE + 1, KEYS));
        writer.writeWindowCounts(windows);
        remember(windows);
        forget();
        GraphSchema.ensure(driver, "");
        assertThat(recorded()).isEqualTo(3 * MINUTE + 1);
        GraphSchema.ensure(driver, "");
        assertThat(recorded()).as("recorded once, then left").isEqualTo(3 * MINUTE + 1);
        checkReadsInside(random, windows);
    }

    @Test
    void aWindowCrossingAMinuteIsFoundWhereARollUpCoversTheRangeStart() {
        Random random = new Random(71);
        assertThat(withinMinutes()).as("an empty store: no fine window crosses a minute").isTrue();
        List<WindowCounts> minutes = new ArrayList<>();
        for (String key : KEYS) {
            for (long start = T0; start < T0 + 4 * HOUR; start += MINUTE) {
                Cct tree = RandomTrees.tree(random, 1 + random.nextInt(5));
                writeTopology(tree);
                minutes.add(new WindowCounts(key, start, start + MINUTE, RandomTrees.counts(tree)));
            }
        }
        writer.writeWindowCounts(minutes);
        remember(minutes);
        assertThat(withinMinutes()).as("one-minute windows on minutes").isTrue();
        new Rollups(driver, "", Duration.ofMinutes(10)).rollUp(T0 + 5 * HOUR);
        checkReadsFrom(random, new long[] {T0 + HOUR, T0 + 2 * HOUR - 1, T0 + 2 * HOUR, T0 + 90 * MINUTE + 17});

        // one window of 90 s from 30 s before the second hour: it starts before that hour's roll-up
        // and reaches into it, so a range from the hour counts it
        Cct tree = RandomTrees.tree(random, 3);
        writeTopology(tree);
        List<WindowCounts> crossing = List.of(new WindowCounts(KEYS.get(1), T0 + 2 * HOUR - 30_000,
                T0 + 2 * HOUR + 60_000, RandomTrees.counts(tree)));
        writer.writeWindowCounts(crossing);
        remember(crossing);
        assertThat(withinMinutes()).as("after a window that crosses a minute").isFalse();
        checkReadsFrom(random, new long[] {T0 + 2 * HOUR, T0 + 2 * HOUR + 1, T0 + 2 * HOUR + 59_999});
        new Rollups(driver, "", Duration.ofMinutes(10)).rollUp(T0 + 5 * HOUR);
        checkReadsFrom(random, new long[] {T0 + 2 * HOUR, T0 + 2 * HOUR + 1, T0 + 2 * HOUR + 59_999});

        unrecord();
        GraphSchema.ensure(driver, "");
        assertThat(withinMinutes()).as("ensure finds the crossing window").isFalse();
    }

    @Test
    void ensureRecordsWhetherAFineWindowCrossesAMinuteOnAnOldStore() {
        Random random = new Random(73);
        List<WindowCounts> windows = new ArrayList<>(randomWindows(random, MINUTE, KEYS));
        windows.addAll(randomWindows(random, 20_000, KEYS));
        writer.writeWindowCounts(windows);
        remember(windows);
        unrecord();
        GraphSchema.ensure(driver, "");
        assertThat(withinMinutes()).as("windows on minutes, and 20 s ones from a minute's start").isTrue();
        assertThat(recorded()).as("the longest left as recorded").isEqualTo(MINUTE);
        checkReadsInside(random, windows);

        List<WindowCounts> crossing = randomWindows(random, 2 * MINUTE, KEYS);
        writer.writeWindowCounts(crossing);
        remember(crossing);
        assertThat(withinMinutes()).isFalse();
        unrecord();
        GraphSchema.ensure(driver, "");
        assertThat(withinMinutes()).as("recorded again from the windows stored").isFalse();
        checkReadsInside(random, List.copyOf(written.values()));
    }

    @Test
    void racingWritersLoseNoRaise() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<WindowCounts>>> writes = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                Random random = new Random(61 + w);
                // executions of its own: the brute force cannot know which of two racing rewrites of a window lands last
                List<String> own = List.of(new ExecutionId("race", "v" + w, "a").key(),
                        new ExecutionId("race", "v" + w, "b").key());
                writes.add(pool.submit(() -> {
                    GraphWriter racing = new GraphWriter(driver, "");
                    List<WindowCounts> all = new ArrayList<>();
                    for (int batch = 0; batch < 6; batch++) {
                        List<WindowCounts> windows = randomWindows(random, LENGTHS[random.nextInt(LENGTHS.length)], own);
                        racing.writeWindowCounts(windows);
                        all.addAll(windows);
                    }
                    return all;
                }));
            }
            long longest = 0;
            for (Future<List<WindowCounts>> f : writes) {
                List<WindowCounts> windows = f.get();
                remember(windows);
                longest = Math.max(longest, windows.stream().mapToLong(FineWindowBoundTest::length).max().orElseThrow());
            }
            assertThat(recorded()).isEqualTo(longest);
            List<String> raced = written.values().stream().map(WindowCounts::executionKey).distinct().toList();
            checkReadsInside(new Random(67), List.copyOf(written.values()), List.of(raced, raced.subList(0, 3)));
        } finally {
            pool.shutdownNow();
        }
    }

    /** Windows of random lengths from {@link #LENGTHS}, of every execution, from a few random starts. */
    private static List<WindowCounts> randomWindows(Random random, int lengths) {
        List<WindowCounts> out = new ArrayList<>();
        for (int i = 0; i < lengths; i++) {
            out.addAll(randomWindows(random, LENGTHS[random.nextInt(LENGTHS.length)], KEYS));
        }
        return out;
    }

    /** Two windows of {@code length} per execution, at random starts within a day (starts may repeat: a rewrite). */
    private static List<WindowCounts> randomWindows(Random random, long length, List<String> keys) {
        List<WindowCounts> out = new ArrayList<>();
        for (String key : keys) {
            for (int i = 0; i < 2; i++) {
                long start = T0 + random.nextInt(24 * 60) * MINUTE;
                Cct tree = RandomTrees.tree(random, 1 + random.nextInt(5));
                writeTopology(tree);
                out.add(new WindowCounts(key, start, start + length, RandomTrees.counts(tree)));
            }
        }
        return out;
    }

    private void remember(List<WindowCounts> windows) {
        for (WindowCounts w : windows) {
            written.put(w.executionKey() + "@" + w.windowStartMillis(), w);
        }
    }

    /**
     * Ranges that start inside some of {@code inside} (the longest, and a few at random: at their
     * start, one millisecond before their end, and at random), read by a plan and by the
     * fine-window read, for a random selection: each sum equals the brute-force one over all
     * windows written.
     */
    private void checkReadsInside(Random random, List<WindowCounts> inside) {
        checkReadsInside(random, inside, SELECTIONS);
    }

    private void checkReadsInside(Random random, List<WindowCounts> inside, List<List<String>> selections) {
        List<WindowCounts> all = List.copyOf(written.values());
        List<WindowCounts> checked = new ArrayList<>();
        checked.add(inside.stream().max(Comparator.comparingLong(FineWindowBoundTest::length)).orElseThrow());
        for (int i = 0; i < 4; i++) {
            checked.add(inside.get(random.nextInt(inside.size())));
        }
        for (WindowCounts w : checked) {
            long length = length(w);
            for (long from : new long[] {w.windowStartMillis(), w.windowEndMillis() - 1,
                    w.windowStartMillis() + random.nextLong(length)}) {
                long to = from + 1 + random.nextLong(3 * 60 * MINUTE);
                List<String> keys = selections.get(random.nextInt(selections.size()));
                checkRead(all, keys, from, to, String.format(", in a window of %d ms", length));
            }
        }
    }

    /** Ranges from each of {@code froms}, of random selections ({@link #checkRead}). */
    private void checkReadsFrom(Random random, long[] froms) {
        List<WindowCounts> all = List.copyOf(written.values());
        for (long from : froms) {
            for (long to : new long[] {from + HOUR, from + 1 + random.nextLong(3 * HOUR)}) {
                checkRead(all, SELECTIONS.get(random.nextInt(SELECTIONS.size())), from, to, "");
            }
        }
    }

    /** A plan's sum and the fine-window read of [from, to) for {@code keys}: each the brute-force sum over {@code all}. */
    private void checkRead(List<WindowCounts> all, List<String> keys, long from, long to, String detail) {
        String what = String.format("[%d, %d) ms after T0 of %s%s", from - T0, to - T0, keys, detail);
        TreeCounts expected = FineSums.overlapping(all, keys, from, to);
        assertThat(windows.plan(keys, from, to).sum()).as(what).isEqualTo(expected);
        assertThat(WindowReader.sum(windows.windows(keys, from, to))).as(what).isEqualTo(expected);
    }

    private static long length(WindowCounts w) {
        return w.windowEndMillis() - w.windowStartMillis();
    }

    /** The recorded longest fine window, null when none is. */
    private static Long recorded() {
        try (Session session = driver.session()) {
            Value v = session.run("MATCH (s:StoreStamp {name: 'windows'}) RETURN s.longestFine AS l").single().get("l");
            return v.isNull() ? null : v.asLong();
        }
    }

    /** Whether the store records that no fine window crosses a minute, null when it records nothing. */
    private static Boolean withinMinutes() {
        try (Session session = driver.session()) {
            Value v = session.run("MATCH (s:StoreStamp {name: 'windows'}) RETURN s.fineWithinMinutes AS w").single()
                    .get("w");
            return v.isNull() ? null : v.asBoolean();
        }
    }

    /** Removes whether a fine window crosses a minute, as on a store written before that was recorded. */
    private static void unrecord() {
        try (Session session = driver.session()) {
            session.run("MATCH (s:StoreStamp {name: 'windows'}) REMOVE s.fineWithinMinutes").consume();
        }
        assertThat(withinMinutes()).isNull();
    }

    /** Removes the record, as on a store written before it existed. */
    private static void forget() {
        try (Session session = driver.session()) {
            session.run("MATCH (s:StoreStamp {name: 'windows'}) REMOVE s.longestFine").consume();
        }
        assertThat(recorded()).isNull();
    }
}
