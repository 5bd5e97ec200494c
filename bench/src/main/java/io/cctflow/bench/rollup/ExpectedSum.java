package io.cctflow.bench.rollup;

import io.cctflow.core.NodeId;
import io.cctflow.core.TreeCounts;
import java.util.HashMap;
import java.util.Map;

/**
 * The sum a roll-up must hold, computed apart from the graph store's code: windows (as stored:
 * self-count projections) added row by row into hash maps keyed by node and by (node, thread),
 * with how many times each was written. The roll-up pass sums with {@code TreeCounts.sum} over
 * sorted columns; this never does.
 *
 * <p>Not thread-safe.
 */
final class ExpectedSum {
    private record NodeThread(long node, long thread) {
    }

    private final Map<Long, Long> self = new HashMap<>();
    private final Map<NodeThread, Long> threadSelf = new HashMap<>();
    private long samples;
    private long windows;

    /** Adds {@code times} copies of window {@code w}. */
    void add(TreeCounts w, long times) {
        long[] ids = w.nodeIds();
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == NodeId.ROOT) {
                samples += times * w.total()[i];
            }
            if (w.self()[i] > 0) {
                self.merge(ids[i], times * w.self()[i], Long::sum);
            }
        }
        long[] tn = w.threadNodeIds();
        for (int e = 0; e < tn.length; e++) {
            if (w.threadSelf()[e] > 0) {
                threadSelf.merge(new NodeThread(tn[e], w.threadIds()[e]), times * w.threadSelf()[e], Long::sum);
            }
        }
        windows += times;
    }

    long samples() {
        return samples;
    }

    long windows() {
        return windows;
    }

    /** Null when {@code stored} holds exactly this sum (self per node and per (node, thread), samples); else the first difference. */
    String mismatch(TreeCounts stored) {
        long[] ids = stored.nodeIds();
        int rows = 0;
        boolean root = false;
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == NodeId.ROOT) {
                root = true;
                if (stored.total()[i] != samples) {
                    return "root total " + stored.total()[i] + ", expected " + samples + " samples";
                }
            }
            long want = self.getOrDefault(ids[i], 0L);
            if (stored.self()[i] != want) {
                return "node " + Long.toHexString(ids[i]) + " self " + stored.self()[i] + ", expected " + want;
            }
            if (want > 0) {
                rows++;
            }
        }
        if (!root && samples > 0) {
            return "no root row, expected " + samples + " samples";
        }
        if (rows != self.size()) {
            return rows + " nodes with self > 0, expected " + self.size();
        }
        long[] tn = stored.threadNodeIds();
        int entries = 0;
        for (int e = 0; e < tn.length; e++) {
            long want = threadSelf.getOrDefault(new NodeThread(tn[e], stored.threadIds()[e]), 0L);
            if (stored.threadSelf()[e] != want) {
                return "node " + Long.toHexString(tn[e]) + " thread " + stored.threadIds()[e] + " self "
                        + stored.threadSelf()[e] + ", expected " + want;
            }
            if (want > 0) {
                entries++;
            }
        }
        if (entries != threadSelf.size()) {
            return entries + " (node, thread) rows with self > 0, expected " + threadSelf.size();
        }
        return null;
    }
}
