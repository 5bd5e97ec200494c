package io.cctflow.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.Cct;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import io.cctflow.servers.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * The store's node numbers ({@link NodeNumbers}) and the windows packed by them (format 4): numbers
 * are dense and given once, also by writers at once; a window is stored numbered once its topology
 * is, read back equal by readers that learn the numbers cold, and still read when written before
 * its topology; a store written before numbers gets them; a wiped store's new numbering is not
 * confused with what a writer or reader learnt before.
 */
class NodeNumbersTest extends CleanGraph {
    private static final String EXEC = "svc\u001fv1\u001fi-1";

    private static WindowCounts window(Cct tree, long start) {
        return new WindowCounts(EXEC, start, start + 60_000, SelfCounts.project(RandomTrees.counts(tree)),
                TruncationCounts.NONE);
    }

    private static int format(long start) {
        try (var session = driver.session()) {
            byte[] counts = session.run("MATCH (w:Window {start: $start}) RETURN w.counts AS c", Map.of("start", start))
                    .single().get("c").asByteArray();
            return counts[0];
        }
    }

    /** Every complete node's number, which must be distinct and exactly 0 to count - 1; and the numbering's next. */
    private static void assertDense() {
        try (var session = driver.session()) {
            List<Long> seqs = session.run("MATCH (n:CctNode) WHERE n.methodId IS NOT NULL RETURN n.seq AS s")
                    .list(r -> r.get("s").asLong(-1));
            List<Long> expected = new ArrayList<>();
            for (long s = 0; s < seqs.size(); s++) {
                expected.add(s);
            }
            assertThat(seqs).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(session.run("MATCH (k:NodeNumbering) RETURN k.next AS next").single().get("next").asLong())
                    .isEqualTo(seqs.size());
        }
    }

    @Test
    void windowsOfWrittenTopologyAreStoredNumberedAndReadBackEqualByAColdReader() {
        Random random = new Random(1);
        List<WindowCounts> written = new ArrayList<>();
        for (int w = 0; w < 6; w++) {
            Cct tree = RandomTrees.tree(random, 1 + random.nextInt(40));
            writeTopology(tree);
            written.add(window(tree, 60_000L * w));
        }
        writer.writeWindowCounts(written);
        for (WindowCounts w : written) {
            assertThat(format(w.windowStartMillis())).isEqualTo(PackedWindow.NUMBERED);
        }
        assertDense();
        WindowReader cold = new WindowReader(driver, "");
        assertThat(cold.storedWindows(List.of(EXEC), 0, 6 * 60_000L)).containsExactlyElementsOf(written);
        assertThat(windows.storedWindows(List.of(EXEC), 0, 6 * 60_000L)).containsExactlyElementsOf(written);
    }

    @Test
    void aWindowWrittenBeforeItsTopologyIsReadAndNumberedWhenNextWritten() {
        Random random = new Random(2);
        Cct known = RandomTrees.tree(random, 20);
        writeTopology(known);
        Cct later = RandomTrees.tree(random, 30);
        later.addStack(new long[] {77, 78, 79}, new int[] {1, 2, 3}, 3, later.thread("late"), 4); // nodes not written yet
        WindowCounts before = window(later, 0);
        writer.writeWindowCounts(List.of(before));
        assertThat(new WindowReader(driver, "").storedWindows(List.of(EXEC), 0, 60_000)).containsExactly(before);

        writeTopology(later);
        writer.writeWindowCounts(List.of(before));
        assertThat(format(0)).isEqualTo(PackedWindow.NUMBERED);
        assertThat(new WindowReader(driver, "").storedWindows(List.of(EXEC), 0, 60_000)).containsExactly(before);
        assertDense();
    }

    @Test
    void writersNumberingAtOnceGiveEachNodeOneNumberAndNoneTwice() throws Exception {
        Random random = new Random(3);
        List<NodeRecord> shared = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            shared.addAll(RandomTrees.topology(RandomTrees.tree(random, 60)).values());
        }
        TestServers servers = TestServers.get();
        GraphStoreConfig config = new GraphStoreConfig(servers.neo4jUri(), servers.neo4jUser(),
                servers.neo4jPassword(), "");
        List<Driver> drivers = List.of(config.openDriver(Duration.ofSeconds(30)), config.openDriver(Duration.ofSeconds(30)),
                config.openDriver(Duration.ofSeconds(30)));
        ExecutorService pool = Executors.newFixedThreadPool(drivers.size());
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int w = 0; w < drivers.size(); w++) {
                List<NodeRecord> mine = new ArrayList<>(shared);
                Collections.shuffle(mine, new Random(w));
                GraphWriter each = new GraphWriter(drivers.get(w), "");
                // in small slices, so that the writers' transactions interleave
                futures.add(pool.submit(() -> {
                    for (int from = 0; from < mine.size(); from += 25) {
                        each.writeNodes(mine.subList(from, Math.min(mine.size(), from + 25)));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
            drivers.forEach(Driver::close);
        }
        assertDense();
        Set<Long> ids = new HashSet<>();
        shared.forEach(n -> ids.add(n.id()));
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (n:CctNode) WHERE n.seq IS NOT NULL RETURN count(n) AS c").single()
                    .get("c").asLong()).isEqualTo(ids.size() + 1); // and the root
        }
    }

    @Test
    void aStoreWrittenBeforeNumbersGetsThemAndStillReadsItsWindows() {
        Random random = new Random(4);
        Cct tree = RandomTrees.tree(random, 40);
        writeTopology(tree);
        WindowCounts numbered = window(tree, 0);
        writer.writeWindowCounts(List.of(numbered));
        // as an older version left the store: no numbers, no numbering, windows in format 3
        try (var session = driver.session()) {
            session.run("MATCH (w:Window) SET w.counts = $counts",
                    Map.of("counts", PackedWindow.pack(numbered.counts()))).consume();
            session.run("MATCH (n:CctNode) REMOVE n.seq").consume();
            session.run("MATCH (k:NodeNumbering) DELETE k").consume();
        }
        GraphSchema.ensure(driver, "");
        assertDense();
        assertThat(format(0)).isEqualTo(PackedWindow.PROJECTED_BY_NODE);
        assertThat(new WindowReader(driver, "").storedWindows(List.of(EXEC), 0, 60_000)).containsExactly(numbered);
        writer.writeWindowCounts(List.of(window(tree, 60_000)));
        assertThat(format(60_000)).isEqualTo(PackedWindow.NUMBERED);
        assertThat(windows.storedWindows(List.of(EXEC), 0, 120_000)).containsExactly(numbered, window(tree, 60_000));
    }

    @Test
    void aWipedStoreNumbersAfreshAndWhatWasLearntBeforeIsNotUsed() {
        Random random = new Random(5);
        Cct first = RandomTrees.tree(random, 40);
        Cct second = RandomTrees.tree(random, 40);
        writeTopology(first);
        writer.writeWindowCounts(List.of(window(first, 0)));
        assertThat(windows.storedWindows(List.of(EXEC), 0, 60_000)).containsExactly(window(first, 0)); // learnt

        TestServers.get().cleanNeo4j();
        GraphSchema.ensure(driver, "");
        writeTopology(second); // numbered from 0 again: the numbers name other nodes
        writeTopology(first);
        writer.writeWindowCounts(List.of(window(first, 0), window(second, 60_000)));
        assertThat(windows.storedWindows(List.of(EXEC), 0, 120_000)).containsExactly(window(first, 0), window(second, 60_000));
    }

    @Test
    void aWindowOfAnotherEpochIsRefusedAsDamaged() {
        Cct tree = RandomTrees.tree(new Random(6), 30);
        writeTopology(tree);
        writer.writeWindowCounts(List.of(window(tree, 0)));
        try (var session = driver.session()) {
            session.run("MATCH (k:NodeNumbering) SET k.epoch = k.epoch + 1").consume();
        }
        assertThatThrownBy(() -> new WindowReader(driver, "").storedWindows(List.of(EXEC), 0, 60_000))
                .hasStackTraceContaining("numbered in epoch");
    }

    @Test
    void anEmptyWindowAndTheRootAloneComeBack() {
        WindowCounts empty = new WindowCounts(EXEC, 0, 60_000, TreeCounts.empty(), TruncationCounts.NONE);
        writer.writeWindowCounts(List.of(empty));
        assertThat(new WindowReader(driver, "").storedWindows(List.of(EXEC), 0, 60_000)).containsExactly(empty);
    }
}
