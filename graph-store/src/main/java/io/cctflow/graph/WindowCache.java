package io.cctflow.graph;

import io.cctflow.graph.model.WindowCounts;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Decoded counts of stored windows, kept across requests, least recently used evicted first. An
 * entry is one version of a window: its key and {@code written} (the database clock of its last
 * write); a lookup names the version the read plan saw, so a window rewritten since (an early or
 * late firing of the samples job, a re-rolled hour, a replay) misses and is read again. A
 * version is only stored once it was written more than {@code settleMillis} before the plan's
 * database time: a rewrite that starts after the plan gets a later {@code written}, and one
 * already running would have to run longer than {@code settleMillis} to carry the same value.
 * So open windows (written within the last minute) are never cached, and no entry can be stale.
 *
 * <p>Bounded by rows (node, per-thread and per-method rows of the cached counts, about 30 bytes
 * each): an entry that would take it above {@code capacityRows} evicts the oldest. Thread-safe.
 */
final class WindowCache {
    /** Default bound in rows: about 250 MB of heap, a day of ten instances at 1-minute windows. */
    static final long DEFAULT_ROWS = 8_000_000;

    private final long capacityRows;
    private final long settleMillis;
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(1024, 0.75f, true);
    private long rows;

    private record Entry(long writtenMillis, WindowCounts counts, long rows) {
    }

    WindowCache(long capacityRows, long settleMillis) {
        if (capacityRows < 0 || settleMillis < 0) {
            throw new IllegalArgumentException("window cache capacity and settle time must be >= 0, got "
                    + capacityRows + " rows and " + settleMillis + " ms");
        }
        this.capacityRows = capacityRows;
        this.settleMillis = settleMillis;
    }

    /** The cached counts of this version of window {@code key}, or null. */
    synchronized WindowCounts get(String key, long writtenMillis) {
        Entry e = entries.get(key);
        return e != null && e.writtenMillis() == writtenMillis ? e.counts() : null;
    }

    /**
     * Keeps {@code counts} as version {@code writtenMillis} of window {@code key} when that version
     * was settled at {@code planNowMillis} (database clock) and fits the bound.
     */
    synchronized void put(String key, long writtenMillis, long planNowMillis, WindowCounts counts) {
        long weight = rows(counts);
        if (weight > capacityRows || writtenMillis >= planNowMillis - settleMillis) {
            return;
        }
        Entry old = entries.put(key, new Entry(writtenMillis, counts, weight));
        rows += weight - (old == null ? 0 : old.rows());
        Iterator<Map.Entry<String, Entry>> eldest = entries.entrySet().iterator();
        while (rows > capacityRows && eldest.hasNext()) {
            rows -= eldest.next().getValue().rows();
            eldest.remove();
        }
    }

    /** Empties the cache. */
    synchronized void clear() {
        entries.clear();
        rows = 0;
    }

    /** Rows held now. */
    synchronized long rows() {
        return rows;
    }

    private static long rows(WindowCounts w) {
        return 1L + w.counts().nodeIds().length + w.counts().threadNodeIds().length + w.counts().methodIds().length;
    }
}
