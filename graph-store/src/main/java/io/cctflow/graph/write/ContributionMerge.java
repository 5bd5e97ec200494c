package io.cctflow.graph.write;

import io.cctflow.core.TreeCounts;
import io.cctflow.graph.Keys;
import io.cctflow.graph.NodeNumbering;
import io.cctflow.graph.NodeNumbers;
import io.cctflow.graph.PackedLongs;
import io.cctflow.graph.PackedWindow;
import io.cctflow.graph.read.WindowRows;
import io.cctflow.model.Resolution;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Record;
import org.neo4j.driver.TransactionContext;
import org.neo4j.driver.Value;

/**
 * Adds contributions to their fine windows, each contribution's id once: in one transaction, the
 * windows are read with the ids of the contributions they hold ({@code batches}), contributions
 * whose id is there already are left out, and each window is written as its stored counts plus the
 * new contributions, with the union of the ids. So a window's stored counts only grow with the
 * batches seen, whatever the order, age or repetition of the contributions, and a reader still
 * reads one row per window. Windows the writer remembers as it last wrote them ({@link
 * WrittenWindows}) are not read. Not thread-safe; one instance per transaction.
 */
final class ContributionMerge {
    private static final String READ = Keys.MATCH_WINDOWS + WindowRows.COLUMNS + ", w.batches AS batches";

    private ContributionMerge() {
    }

    /** A window's row to write, and what {@link WrittenWindows} remembers of it once committed. */
    record Merged(String windowKey, Map<String, Object> row, TruncationCounts truncation) {
        void rememberIn(WrittenWindows memory) {
            memory.remember(windowKey, (byte[]) row.get("counts"), truncation, (byte[]) row.get("batches"));
        }
    }

    /**
     * The windows to write for {@code contributions} (in their windows' first-seen order): those
     * {@code memory} holds as remembered, the others as read in {@code tx}; windows that gain
     * nothing are left out.
     */
    static List<Merged> merge(TransactionContext tx, NodeNumbers.TransactionNumbering numbering,
            List<WindowContribution> contributions, WrittenWindows memory) {
        Map<String, List<WindowContribution>> byWindow = new LinkedHashMap<>();
        for (WindowContribution c : contributions) {
            byWindow.computeIfAbsent(c.windowKey(), k -> new ArrayList<>()).add(c);
        }
        Map<String, Stored> stored = new LinkedHashMap<>();
        List<Map<String, Object>> identities = new ArrayList<>();
        for (Map.Entry<String, List<WindowContribution>> e : byWindow.entrySet()) {
            WrittenWindows.Written remembered = memory.get(e.getKey());
            if (remembered != null) {
                stored.put(e.getKey(), new Stored(PackedWindow.unpack(remembered.counts(), numbering), remembered.truncation(),
                        PackedLongs.unpack(remembered.batches())));
                continue;
            }
            WindowCounts w = e.getValue().get(0).counts();
            identities.add(Keys.windowIdentity(w.executionKey(), Resolution.FINE, w.windowStartMillis()));
        }
        if (!identities.isEmpty()) {
            // read whole before decoding: a decoding may read node numbers in the same transaction
            for (Record r : tx.run(READ, Map.of("windows", identities)).list()) {
                stored.put(WindowRows.key(r), Stored.of(r, numbering));
            }
        }
        List<Summed> sums = new ArrayList<>();
        for (Map.Entry<String, List<WindowContribution>> e : byWindow.entrySet()) {
            Summed m = merge(e.getKey(), stored.get(e.getKey()), e.getValue());
            if (m != null) {
                sums.add(m);
            }
        }
        List<Map<String, Object>> rows = GraphWriter.windowRows(numbering,
                sums.stream().map(Summed::window).toList(), Resolution.FINE);
        List<Merged> merged = new ArrayList<>(sums.size());
        for (int i = 0; i < sums.size(); i++) {
            Summed m = sums.get(i);
            Map<String, Object> row = rows.get(i);
            row.put("batches", PackedLongs.pack(m.batches()));
            merged.add(new Merged(m.key(), row, m.window().truncation()));
        }
        return merged;
    }

    /** A window's new sum and the sorted ids of the contributions it holds, before it is packed. */
    private record Summed(String key, WindowCounts window, long[] batches) {
    }

    /** A window as stored: counts, truncation and the sorted ids of the contributions it holds. */
    private record Stored(TreeCounts counts, TruncationCounts truncation, long[] ids) {
        static Stored of(Record r, NodeNumbering numbering) {
            WindowCounts w = WindowRows.toWindow(r, numbering);
            return new Stored(w.counts(), w.truncation(), storedIds(r.get("batches")));
        }
    }

    /** Window {@code key}: stored (null if none) plus the contributions not in it; null if none is new. */
    private static Summed merge(String key, Stored stored, List<WindowContribution> contributions) {
        long[] ids = stored == null ? new long[0] : stored.ids();
        List<TreeCounts> counts = new ArrayList<>();
        TruncationCounts truncation = TruncationCounts.NONE;
        WindowCounts first = contributions.get(0).counts();
        if (stored != null) {
            counts.add(stored.counts());
            truncation = stored.truncation();
        }
        long[] added = new long[contributions.size()];
        int n = 0;
        for (WindowContribution c : contributions) {
            if (Arrays.binarySearch(ids, c.id()) >= 0 || contains(added, n, c.id())) {
                continue; // counted already
            }
            added[n++] = c.id();
            counts.add(c.counts().counts());
            truncation = truncation.plus(c.counts().truncation());
        }
        if (n == 0) {
            return null;
        }
        long[] union = Arrays.copyOf(ids, ids.length + n);
        System.arraycopy(added, 0, union, ids.length, n);
        Arrays.sort(union);
        WindowCounts sum = new WindowCounts(first.executionKey(), first.windowStartMillis(), first.windowEndMillis(),
                TreeCounts.sum(counts), truncation);
        return new Summed(key, sum, union);
    }

    private static boolean contains(long[] ids, int n, long id) {
        for (int i = 0; i < n; i++) {
            if (ids[i] == id) {
                return true;
            }
        }
        return false;
    }

    /** The sorted ids a stored window holds; none for a window written before they were kept. */
    private static long[] storedIds(Value batches) {
        return batches.isNull() ? new long[0] : PackedLongs.unpack(batches.asByteArray());
    }
}
