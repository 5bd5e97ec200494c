package io.cctflow.graph.write;

import io.cctflow.core.TreeCounts;
import io.cctflow.graph.Keys;
import io.cctflow.graph.PackedLongs;
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
 * reads one row per window. Not thread-safe; one instance per transaction.
 */
final class ContributionMerge {
    private static final String READ = Keys.MATCH_WINDOWS + WindowRows.COLUMNS + ", w.batches AS batches";

    private ContributionMerge() {
    }

    /**
     * The rows to write for {@code contributions} (in their windows' first-seen order), after
     * reading their windows in {@code tx}; windows that gain nothing are left out.
     */
    static List<Map<String, Object>> rows(TransactionContext tx, List<WindowContribution> contributions) {
        Map<String, List<WindowContribution>> byWindow = new LinkedHashMap<>();
        for (WindowContribution c : contributions) {
            byWindow.computeIfAbsent(c.windowKey(), k -> new ArrayList<>()).add(c);
        }
        Map<String, Record> stored = new LinkedHashMap<>();
        List<Map<String, Object>> identities = new ArrayList<>();
        for (List<WindowContribution> c : byWindow.values()) {
            WindowCounts w = c.get(0).counts();
            identities.add(Keys.windowIdentity(w.executionKey(), Resolution.FINE, w.windowStartMillis()));
        }
        tx.run(READ, Map.of("windows", identities)).forEachRemaining(r -> stored.put(WindowRows.key(r), r));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (Map.Entry<String, List<WindowContribution>> e : byWindow.entrySet()) {
            Map<String, Object> row = merge(stored.get(e.getKey()), e.getValue());
            if (row != null) {
                rows.add(row);
            }
        }
        return rows;
    }

    /** The row of one window: stored (null if none) plus the contributions not in it; null if none is new. */
    private static Map<String, Object> merge(Record stored, List<WindowContribution> contributions) {
        long[] ids = stored == null ? new long[0] : ids(stored.get("batches"));
        List<TreeCounts> counts = new ArrayList<>();
        TruncationCounts truncation = TruncationCounts.NONE;
        WindowCounts first = contributions.get(0).counts();
        if (stored != null) {
            WindowCounts w = WindowRows.toWindow(stored);
            counts.add(w.counts());
            truncation = w.truncation();
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
        Map<String, Object> row = GraphWriter.windowRow(sum, Resolution.FINE);
        row.put("batches", PackedLongs.pack(union));
        return row;
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
    private static long[] ids(Value batches) {
        return batches.isNull() ? new long[0] : PackedLongs.unpack(batches.asByteArray());
    }
}
