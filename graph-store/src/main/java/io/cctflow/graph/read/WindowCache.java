package io.cctflow.graph.read;

import io.cctflow.core.TreeCounts;
import io.cctflow.model.WindowCounts;
import io.cctflow.core.collect.WeighedLru;

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
 * <p>It also keeps sums of groups of window versions ({@link #putSum}): the windows of one time
 * slot of several executions, summed once, so a later read of the same executions sums one row
 * set per slot instead of one per execution.
 *
 * <p>Bounded by rows (node, per-thread and per-method rows of the cached counts, about 30 bytes
 * each): an entry that would take it above {@code capacityRows} evicts the oldest. Thread-safe.
 */
public final class WindowCache {
    /** Default bound in rows: about 250 MB of heap, a day of ten instances at 1-minute windows. */
    static final long DEFAULT_ROWS = 8_000_000;

    private final long settleMillis;
    private final WeighedLru<String, Entry> entries;

    /** {@code counts} is a {@link WindowCounts} (one window) or a {@link TreeCounts} (a group's sum). */
    private record Entry(long writtenMillis, Object counts) {
    }

    /**
     * @param capacityRows most rows kept; 0 keeps nothing
     * @param settleMillis how long before the plan's database time a version must have been written to be kept
     */
    public WindowCache(long capacityRows, long settleMillis) {
        if (capacityRows < 0 || settleMillis < 0) {
            throw new IllegalArgumentException("window cache capacity and settle time must be >= 0, got "
                    + capacityRows + " rows and " + settleMillis + " ms");
        }
        this.settleMillis = settleMillis;
        this.entries = new WeighedLru<>(capacityRows);
    }

    /** The cached counts of this version of window {@code key}, or null. */
    synchronized WindowCounts get(String key, long writtenMillis) {
        Entry e = entries.get(key);
        return e != null && e.writtenMillis() == writtenMillis && e.counts() instanceof WindowCounts w ? w : null;
    }

    /** The cached sum named {@code key} ({@link #putSum}), or null. */
    synchronized TreeCounts getSum(String key) {
        Entry e = entries.get(key);
        return e != null && e.counts() instanceof TreeCounts c ? c : null;
    }

    /**
     * Keeps {@code counts} as version {@code writtenMillis} of window {@code key} when that version
     * was settled at {@code planNowMillis} (database clock) and fits the bound.
     */
    synchronized void put(String key, long writtenMillis, long planNowMillis, WindowCounts counts) {
        keep(key, writtenMillis, planNowMillis, counts, rows(counts.counts()));
    }

    /**
     * Keeps the sum of a group of window versions under {@code key}, a name that lists every member
     * with its {@code written} (so a rewritten member makes it a different name), when the latest
     * member, written at {@code latestWrittenMillis}, was settled at {@code planNowMillis}.
     */
    synchronized void putSum(String key, long latestWrittenMillis, long planNowMillis, TreeCounts sum) {
        keep(key, latestWrittenMillis, planNowMillis, sum, rows(sum));
    }

    /**
     * Whether a version written at {@code writtenMillis} (database clock) was settled at {@code
     * planNowMillis}: written more than {@code settleMillis} before, so no write running or to come
     * can give other counts the same {@code written}. Only settled versions are kept.
     */
    boolean isSettled(long writtenMillis, long planNowMillis) {
        return writtenMillis < planNowMillis - settleMillis;
    }

    private void keep(String key, long writtenMillis, long planNowMillis, Object counts, long weight) {
        if (isSettled(writtenMillis, planNowMillis)) {
            entries.put(key, new Entry(writtenMillis, counts), weight);
        }
    }

    /** Empties the cache. */
    synchronized void clear() {
        entries.clear();
    }

    /** Rows held now. */
    public synchronized long rows() {
        return entries.weight();
    }

    private static long rows(TreeCounts c) {
        return 1L + c.nodeIds().length + c.threadNodeIds().length + c.methodIds().length;
    }
}
