package io.cctflow.graph.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.RunningCounts;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.PackedWindow;
import io.cctflow.graph.RandomTrees;
import io.cctflow.graph.SelfCounts;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Session;

/**
 * {@link WindowReader#foldStoredWindows}: the windows it folds are those {@link
 * WindowReader#storedWindows} returns, in the same order, and a read that meets a torn window
 * midway is repeated into a fresh accumulator, so what it folded before the torn window is not
 * counted twice.
 */
class FoldStoredWindowsTest extends CleanGraph {
    private static final long MINUTE = 60_000;
    private static final long T0 = 1_700_006_400_000L;

    /** Folds windows into their count, their sum and the keys seen; one per read. */
    private static final class Folded {
        final List<String> keys = new ArrayList<>();
        final RunningCounts sum = new RunningCounts();

        void add(WindowCounts w) {
            keys.add(w.executionKey() + "@" + w.windowStartMillis());
            sum.add(w.counts());
        }
    }

    @Test
    void foldsWhatTheListReadReturnsAgainstTheWindowsWritten() {
        Random random = new Random(7);
        List<String> keys = new ArrayList<>();
        List<WindowCounts> written = writeRandomWindows(random, keys);
        long from = T0 + 2 * MINUTE + 1;
        long to = T0 + 8 * MINUTE;
        List<TreeCounts> expected = written.stream()
                .filter(w -> w.windowStartMillis() < to && w.windowEndMillis() > from)
                .map(w -> SelfCounts.project(w.counts())).toList();

        List<WindowCounts> listed = windows.storedWindows(keys, from, to);
        Folded folded = windows.foldStoredWindows(keys, from, to, Folded::new, Folded::add);

        assertThat(folded.keys).isEqualTo(listed.stream().map(w -> w.executionKey() + "@" + w.windowStartMillis()).toList())
                .hasSize(expected.size());
        assertThat(folded.sum.counts()).isEqualTo(TreeCounts.sum(expected)).isEqualTo(WindowReader.sum(listed));
    }

    /**
     * The last window of the stream is torn (its packed counts from another write than its
     * checksum) on the first read and mended before the second: the first read folds every window
     * before it and is dropped; the result is the second read's, every window once.
     */
    @Test
    void aReadTornMidwayIsRepeatedFromAFreshAccumulator() {
        Random random = new Random(11);
        List<String> keys = new ArrayList<>();
        List<WindowCounts> written = writeRandomWindows(random, keys);
        long from = T0;
        long to = T0 + 10 * MINUTE;
        List<WindowCounts> listed = windows.storedWindows(keys, from, to);
        assertThat(listed).hasSizeGreaterThan(2);
        WindowCounts last = listed.get(listed.size() - 1);
        WindowCounts other = listed.get(0);
        Map<String, Object> lastWindow = Map.of("key", last.executionKey(), "start", last.windowStartMillis());
        byte[] stored;
        try (Session session = driver.session()) {
            stored = session.run("MATCH (w:Window {instance: $key, start: $start}) RETURN w.counts AS counts", lastWindow)
                    .single().get("counts").asByteArray();
            session.run("MATCH (w:Window {instance: $key, start: $start}) SET w.counts = $counts",
                    Map.of("key", last.executionKey(), "start", last.windowStartMillis(),
                            "counts", PackedWindow.pack(other.counts()))).consume();
        }
        List<Folded> reads = new ArrayList<>();

        Folded result = windows.foldStoredWindows(keys, from, to, () -> {
            if (reads.size() == 1) { // the first read met the torn window: mend it before the next
                try (Session session = driver.session()) {
                    session.run("MATCH (w:Window {instance: $key, start: $start}) SET w.counts = $counts",
                            Map.of("key", last.executionKey(), "start", last.windowStartMillis(), "counts", stored))
                            .consume();
                }
            }
            Folded f = new Folded();
            reads.add(f);
            return f;
        }, Folded::add);

        assertThat(reads).hasSize(2);
        assertThat(reads.get(0).keys).as("the first read folded the windows before the torn one")
                .hasSize(listed.size() - 1);
        assertThat(result).isSameAs(reads.get(1));
        assertThat(result.keys).hasSize(listed.size()).doesNotHaveDuplicates();
        assertThat(result.sum.counts()).isEqualTo(WindowReader.sum(listed))
                .isEqualTo(TreeCounts.sum(written.stream().map(w -> SelfCounts.project(w.counts())).toList()));
    }

    /** Random windows of a few instances over ten minutes, some minutes missing, with their topology. */
    private static List<WindowCounts> writeRandomWindows(Random random, List<String> keys) {
        List<WindowCounts> written = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            String key = new ExecutionId("svc", "v1", "i" + i).key();
            keys.add(key);
            for (long start = T0; start < T0 + 10 * MINUTE; start += MINUTE) {
                if (random.nextInt(4) > 0) {
                    Cct tree = RandomTrees.tree(random, 1 + random.nextInt(8));
                    writeTopology(tree);
                    written.add(new WindowCounts(key, start, start + MINUTE, RandomTrees.counts(tree)));
                }
            }
        }
        writer.writeWindowCounts(written);
        return written;
    }
}
