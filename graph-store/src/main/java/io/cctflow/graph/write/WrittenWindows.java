package io.cctflow.graph.write;

import io.cctflow.model.TruncationCounts;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The fine windows one writer stored last, as it stored them: packed counts, truncation counts and
 * the ids of the contributions they hold. {@link GraphWriter#addContributions(java.util.List,
 * WrittenWindows)} adds to a window found here without reading it from the graph. That read, the
 * window's counts and ids over Bolt with every batch, cost Neo4j most of its CPU for window writes:
 * without it Neo4j took 3.5-3.8 times less per sample ({@code RollupBenchmark --phase sink}).
 *
 * <p>What is here is what the graph holds only while this writer is the sole writer of those
 * windows: the samples job writes each execution's windows from one sink subtask, and each subtask
 * has its own memory, empty after every (re)start. A window is remembered only after its
 * transaction committed, and every window is forgotten when a write fails, since a failed commit
 * may have been applied. Retention deleting a remembered window changes nothing for its counts: a
 * window gaining a late contribution is written again whole, as the graph last held it.
 *
 * <p>Bounded by {@code maxBytes} (packed arrays and an estimate of each entry's overhead); the
 * least recently used windows are forgotten first, and a forgotten window is read again from the
 * graph. 0 remembers nothing. Not thread-safe.
 */
public final class WrittenWindows {
    /** Per window beyond its arrays: the key, the map entry, the record, two array headers. */
    static final int ENTRY_OVERHEAD_BYTES = 200;

    private final long maxBytes;
    private final LinkedHashMap<String, Written> windows = new LinkedHashMap<>(64, 0.75f, true);
    private long bytes;
    private long found;
    private long missed;

    /** A window as last written: its packed counts ({@code PackedWindow}), truncation and packed ids ({@code PackedLongs}). */
    record Written(byte[] counts, TruncationCounts truncation, byte[] batches) {
        long bytes(String key) {
            return counts.length + batches.length + 2L * key.length() + ENTRY_OVERHEAD_BYTES;
        }
    }

    /** @param maxBytes bytes to hold at most, &gt;= 0; 0 remembers nothing */
    public WrittenWindows(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must be >= 0, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    /** A memory that holds nothing: every window is read before it is added to. */
    public static WrittenWindows none() {
        return new WrittenWindows(0);
    }

    /** The window named {@code key} ({@code Keys.window}) as last written, or null if not remembered. */
    Written get(String key) {
        Written w = windows.get(key);
        if (w == null) {
            missed++;
        } else {
            found++;
        }
        return w;
    }

    /**
     * Remembers what was committed for the window {@code key}; counts the packed form cannot code
     * ({@code counts} null) are not remembered, and the window is read again next time.
     */
    void remember(String key, byte[] counts, TruncationCounts truncation, byte[] batches) {
        Written old = windows.remove(key);
        if (old != null) {
            bytes -= old.bytes(key);
        }
        if (counts == null || maxBytes == 0) {
            return;
        }
        Written w = new Written(counts, truncation, batches);
        long size = w.bytes(key);
        if (size > maxBytes) {
            return;
        }
        windows.put(key, w);
        bytes += size;
        for (Iterator<Map.Entry<String, Written>> it = windows.entrySet().iterator(); bytes > maxBytes && it.hasNext(); ) {
            Map.Entry<String, Written> eldest = it.next();
            bytes -= eldest.getValue().bytes(eldest.getKey());
            it.remove();
        }
    }

    /** Forgets every window: what the graph holds is read again. */
    void forgetAll() {
        windows.clear();
        bytes = 0;
    }

    /** Windows remembered. */
    public int size() {
        return windows.size();
    }

    /** Windows looked up and found here (not read from the graph), since this memory was made. */
    public long found() {
        return found;
    }

    /** Windows looked up and not found here (read from the graph), since this memory was made. */
    public long missed() {
        return missed;
    }

    /** Bytes held, as counted against the bound. */
    public long bytes() {
        return bytes;
    }
}
