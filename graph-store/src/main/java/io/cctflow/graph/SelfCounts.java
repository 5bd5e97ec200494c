package io.cctflow.graph;

import io.cctflow.core.NodeId;
import io.cctflow.core.TreeCounts;

/**
 * What a stored window holds since format 2 of {@link PackedWindow}: the <em>projection</em> of a
 * window's {@link TreeCounts} on its self counts. Kept: the node rows with self &gt; 0 (their
 * {@code total} column set to their self count), the root's row with its total (every sample of
 * the window, so {@link TreeCounts#samples()} still holds), the per-thread rows with self &gt; 0,
 * the thread dictionary and raw thread names. Left out: every other node row (an ancestor only on
 * the sampled paths: 11,189 of a busy minute's 12,034 rows) and the per-method table. Both are
 * functions of the self counts and the topology ({@code :CctNode} parent, method, recursive parent),
 * so the readers derive them again ({@code read.CountsExpansion}).
 *
 * <p>The projection commutes with sums (self counts are never negative, so a row with self &gt; 0
 * in a sum has it in some part, and the root's total is the sum of the parts'): the samples job's
 * window sums, the roll-up pass and {@code CoveredSum} work on projected windows as they did on
 * whole ones, and need no topology. Projecting projected counts returns them. Stateless.
 */
public final class SelfCounts {
    private SelfCounts() {
    }

    /** The projection of {@code c} (itself when it is one already). */
    public static TreeCounts project(TreeCounts c) {
        if (isProjected(c)) {
            return c;
        }
        long[] ids = c.nodeIds();
        long[] self = c.self();
        long[] total = c.total();
        int rows = 0;
        for (int i = 0; i < ids.length; i++) {
            if (self[i] > 0 || ids[i] == NodeId.ROOT) {
                rows++;
            }
        }
        long[] keptIds = new long[rows];
        long[] keptSelf = new long[rows];
        long[] keptTotal = new long[rows];
        for (int i = 0, k = 0; i < ids.length; i++) {
            if (self[i] > 0 || ids[i] == NodeId.ROOT) {
                keptIds[k] = ids[i];
                keptSelf[k] = self[i];
                keptTotal[k] = ids[i] == NodeId.ROOT ? total[i] : self[i];
                k++;
            }
        }
        long[] threadSelf = c.threadSelf();
        int entries = 0;
        for (long s : threadSelf) {
            if (s > 0) {
                entries++;
            }
        }
        long[] entryNodes = new long[entries];
        long[] entryThreads = new long[entries];
        long[] entrySelf = new long[entries];
        for (int e = 0, k = 0; e < threadSelf.length; e++) {
            if (threadSelf[e] > 0) {
                entryNodes[k] = c.threadNodeIds()[e];
                entryThreads[k] = c.threadIds()[e];
                entrySelf[k] = threadSelf[e];
                k++;
            }
        }
        return TreeCounts.of(keptIds, keptSelf, keptTotal, entryNodes, entryThreads, entrySelf, c.threadDictIds(),
                c.threadDictNames(), new long[0], new long[0], new long[0]).withRawThreadNames(c.rawThreadNames());
    }

    /**
     * Whether {@code c} is a projection: no per-method rows, no node row but the root's with self 0
     * or a total other than its self, no per-thread row with self 0.
     */
    public static boolean isProjected(TreeCounts c) {
        if (c.methodIds().length > 0) {
            return false;
        }
        long[] ids = c.nodeIds();
        long[] self = c.self();
        long[] total = c.total();
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] != NodeId.ROOT && (self[i] <= 0 || total[i] != self[i])) {
                return false;
            }
        }
        for (long s : c.threadSelf()) {
            if (s <= 0) {
                return false;
            }
        }
        return true;
    }
}
