package io.cctflow.graph.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.MethodId;
import io.cctflow.core.RawThreadNames;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.RandomTrees;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import io.cctflow.servers.TestServers;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

/**
 * {@link GraphWriter#addContributions} against a brute-force sum: random contributions to a few
 * windows, each sent one to four times, in random order and random buffers (as a replay, copies
 * and a job restarted without state send them), leave every window equal to the sum of its
 * distinct contributions (raw thread names included: their bounded union), and no buffer makes a
 * window's samples shrink; so too with the writer remembering the windows it wrote ({@link
 * WrittenWindows}), whether it holds them all or forgets the oldest.
 */
class WindowContributionsTest extends CleanGraph {
    private static final String EXEC = new ExecutionId("svc", "v1", "i-1").key();
    private static final long[] METHODS = {MethodId.of("A", "main", "()V"), MethodId.of("A", "f", "()V"),
        MethodId.of("A", "g", "()V"), MethodId.of("B", "h", "()V")};

    @ParameterizedTest(name = "remembering {0} bytes")
    @ValueSource(longs = {0, 3_000, 64 << 20})
    void eachContributionCountsOnceWhateverItsRepetitionsAndOrder(long rememberedBytes) {
        WrittenWindows memory = new WrittenWindows(rememberedBytes);
        writer.writeInstances(List.of(new InstanceRecord("svc", "v1", "i-1", "h", 1, 0, Map.of(), 0, 600_000)));
        Random random = new Random(3);
        List<WindowContribution> distinct = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            long start = 60_000L * random.nextInt(4) + 3_600_000L * 24 * random.nextInt(2); // some a day apart
            distinct.add(new WindowContribution(new WindowCounts(EXEC, start, start + 60_000, randomCounts(random),
                    new TruncationCounts(random.nextInt(3), random.nextInt(3), 0, random.nextInt(2))),
                    random.nextLong()));
        }
        List<WindowContribution> sent = new ArrayList<>();
        for (WindowContribution c : distinct) {
            for (int copies = 1 + random.nextInt(4); copies > 0; copies--) {
                sent.add(c);
            }
        }
        Collections.shuffle(sent, random);
        Map<Long, Long> samplesBefore = new HashMap<>();
        for (int from = 0; from < sent.size(); ) {
            int to = Math.min(sent.size(), from + 1 + random.nextInt(12));
            writer.addContributions(sent.subList(from, to), memory);
            from = to;
            Map<Long, Long> samples = storedSamples();
            samplesBefore.forEach((start, before) -> assertThat(samples.get(start)).as("window %d", start)
                    .isGreaterThanOrEqualTo(before));
            samplesBefore = samples;
        }
        Map<Long, List<WindowContribution>> expected = new LinkedHashMap<>();
        for (WindowContribution c : distinct) {
            expected.computeIfAbsent(c.counts().windowStartMillis(), s -> new ArrayList<>()).add(c);
        }
        for (Map.Entry<Long, List<WindowContribution>> e : expected.entrySet()) {
            WindowCounts stored = stored(e.getKey());
            assertThat(stored.counts()).as("window %d", e.getKey())
                    .isEqualTo(TreeCounts.sum(e.getValue().stream().map(c -> c.counts().counts()).toList()));
            assertThat(stored.truncation()).isEqualTo(e.getValue().stream().map(c -> c.counts().truncation())
                    .reduce(TruncationCounts.NONE, TruncationCounts::plus));
        }
        assertThat(windows.windows(List.of(EXEC), 0, Long.MAX_VALUE)).hasSize(expected.size());
        if (rememberedBytes > 0) {
            assertThat(memory.size()).as("windows remembered").isPositive();
            assertThat(memory.bytes()).as("bytes remembered").isPositive().isLessThanOrEqualTo(rememberedBytes);
        }
        if (rememberedBytes > 1_000_000) {
            assertThat(memory.size()).as("all windows remembered").isEqualTo(expected.size());
        } else if (rememberedBytes > 0) {
            assertThat(memory.size()).as("the oldest forgotten").isLessThan(expected.size());
        }
    }

    /**
     * A remembered window is added to as remembered, not read: a window deleted behind the
     * writer's back (which the single-writer rule excludes) comes back whole with the next
     * contribution. A failed write forgets every window, and a memory of none reads them all.
     */
    @Test
    void aRememberedWindowIsNotReadAndAFailedWriteForgetsThemAll() {
        writer.writeInstances(List.of(new InstanceRecord("svc", "v1", "i-1", "h", 1, 0, Map.of(), 0, 600_000)));
        Random random = new Random(5);
        WindowContribution first = contribution(random, 1);
        WindowContribution second = contribution(random, 2);
        TreeCounts both = TreeCounts.sum(List.of(first.counts().counts(), second.counts().counts()));

        WrittenWindows memory = new WrittenWindows(1 << 20);
        writer.addContributions(List.of(first), memory);
        assertThat(memory.size()).isEqualTo(1);
        deleteWindows();
        writer.addContributions(List.of(second), memory);
        assertThat(stored(0).counts()).as("remembered, not read").isEqualTo(both);

        deleteWindows();
        writer.addContributions(List.of(first), WrittenWindows.none());
        writer.addContributions(List.of(second), WrittenWindows.none());
        assertThat(stored(0).counts()).as("read each time").isEqualTo(both);

        Driver closed = TestServers.get().newDriver();
        closed.close();
        assertThatThrownBy(() -> new GraphWriter(closed, "").addContributions(List.of(contribution(random, 3)), memory))
                .isInstanceOf(IllegalStateException.class);
        assertThat(memory.size()).as("forgotten after a failed write").isZero();
        deleteWindows();
        writer.addContributions(List.of(second), memory);
        assertThat(stored(0).counts()).as("read again after a failure").isEqualTo(second.counts().counts());
    }

    private static WindowContribution contribution(Random random, long id) {
        return new WindowContribution(new WindowCounts(EXEC, 0, 60_000, randomCounts(random), TruncationCounts.NONE), id);
    }

    private static void deleteWindows() {
        try (Session session = driver.session()) {
            session.run("MATCH (w:Window) DETACH DELETE w").consume();
        }
    }

    private static WindowCounts stored(long start) {
        return windows.windows(List.of(EXEC), start, start + 1).stream()
                .filter(w -> w.windowStartMillis() == start).findFirst().orElseThrow();
    }

    private static Map<Long, Long> storedSamples() {
        Map<Long, Long> samples = new HashMap<>();
        for (WindowCounts w : windows.windows(List.of(EXEC), 0, Long.MAX_VALUE)) {
            samples.put(w.windowStartMillis(), w.counts().samples());
        }
        return samples;
    }

    private static TreeCounts randomCounts(Random random) {
        Cct tree = new Cct();
        int stacks = 1 + random.nextInt(5);
        for (int s = 0; s < stacks; s++) {
            int depth = 1 + random.nextInt(4);
            long[] methods = new long[depth];
            int[] lines = new int[depth];
            for (int i = 0; i < depth; i++) {
                methods[i] = METHODS[random.nextInt(METHODS.length)];
                lines[i] = random.nextInt(3);
            }
            tree.addStack(methods, lines, depth, tree.thread(random.nextBoolean() ? "main" : "worker-#"),
                    1 + random.nextInt(5));
        }
        // raw names behind worker-#, more than a window keeps of a pool once several are summed
        List<String> raw = new ArrayList<>();
        for (int t = random.nextInt(4); t > 0; t--) {
            raw.add("worker-" + random.nextInt(12));
        }
        writer.writeNodes(new ArrayList<>(RandomTrees.topology(tree).values())); // readers expand windows with it
        return TreeCounts.of(tree).withRawThreadNames(RawThreadNames.of(raw));
    }
}
