package io.cctflow.core;

import io.cctflow.core.internal.LongSums;
import java.util.Arrays;

/**
 * The sample counts of some stacks (e.g. one batch) over an existing tree's topology, without a
 * tree of their own: merging a stack walks the tree, creating the nodes it lacks there as {@link
 * Cct#addStack} does, but charges the sample here, to the nodes the stack passed. {@link
 * TreeCounts#of(StackCounts)} equals {@link TreeCounts#of(Cct)} of a fresh {@code Cct} into which
 * only these stacks were merged, at the cost of one hash lookup per frame: no node of a second
 * tree is created, and recursive parents come from the tree, where each node's was computed once.
 * The counts in the tree itself are not changed.
 *
 * <p>Node indexes are the tree's, so the tree may grow meanwhile (a {@code Cct} only appends) and
 * paths completed in it by others (e.g. a merged truncated stack) can be charged with {@link
 * #addPath}. Not thread-safe.
 */
public final class StackCounts {
    private final Cct tree;
    private long[] self;
    private long[] total;
    private boolean[] touched;
    private int[] touchedNodes;
    private int touchedCount;
    /** Self counts per (node << 32 | thread). */
    private final LongSums threadSelf = new LongSums(256);

    /** Counts over {@code tree}, none yet (the root is touched with zero counts, as a fresh tree has it). */
    public StackCounts(Cct tree) {
        this.tree = tree;
        int cap = Math.max(16, tree.size());
        self = new long[cap];
        total = new long[cap];
        touched = new boolean[cap];
        touchedNodes = new int[64];
        touch(Cct.ROOT);
    }

    /** The tree whose topology these counts are over. */
    public Cct tree() {
        return tree;
    }

    /** The tree's id of a thread name ({@link Cct#thread}). */
    public int thread(String name) {
        return tree.thread(name);
    }

    /**
     * Merges one stack sample as {@link Cct#addStack(long[], int[], int, int, long)} does, creating
     * missing nodes in the tree; the counts go here.
     *
     * @return the tree's index of the leaf
     */
    public int addStack(long[] methodIds, int[] callSiteLines, int depth, int thread, long count) {
        int node = Cct.ROOT;
        total[node] += count;
        for (int i = 0; i < depth; i++) {
            node = tree.child(node, methodIds[i], callSiteLines[i]);
            touch(node);
            total[node] += count;
        }
        self[node] += count;
        addThreadSelf(node, thread, count);
        return node;
    }

    /** Charges {@code count} samples of {@code thread} to an existing node of the tree as leaf, and its ancestors. */
    public void addPath(int leaf, int thread, long count) {
        for (int n = leaf; n != Cct.NONE; n = tree.parent(n)) {
            touch(n);
            total[n] += count;
        }
        self[leaf] += count;
        addThreadSelf(leaf, thread, count);
    }

    /** Samples merged so far: the root's total. */
    public long samples() {
        return total[Cct.ROOT];
    }

    /** Number of nodes the stacks passed, the root included. */
    public int nodes() {
        return touchedCount;
    }

    /** The {@code k}-th node passed (tree index), in first-touch order, parents before children. */
    public int node(int k) {
        return touchedNodes[k];
    }

    public long self(int node) {
        return node < self.length ? self[node] : 0;
    }

    public long total(int node) {
        return node < total.length ? total[node] : 0;
    }

    /** Number of (node, thread) pairs with a self count. */
    public int threadEntries() {
        return threadSelf.size();
    }

    public int threadEntryNode(int e) {
        return (int) (threadSelf.key(e) >>> 32);
    }

    public int threadEntryThread(int e) {
        return (int) threadSelf.key(e);
    }

    public long threadEntrySelf(int e) {
        return threadSelf.sum(e);
    }

    private void touch(int node) {
        if (node >= touched.length) {
            int cap = Math.max(node + 1, touched.length * 2);
            self = Arrays.copyOf(self, cap);
            total = Arrays.copyOf(total, cap);
            touched = Arrays.copyOf(touched, cap);
        }
        if (!touched[node]) {
            touched[node] = true;
            if (touchedCount == touchedNodes.length) {
                touchedNodes = Arrays.copyOf(touchedNodes, touchedCount * 2);
            }
            touchedNodes[touchedCount++] = node;
        }
    }

    private void addThreadSelf(int node, int thread, long count) {
        if (thread < 0 || thread >= tree.threads()) {
            throw new IllegalArgumentException("unknown thread id " + thread + "; ids come from thread(String)");
        }
        threadSelf.add(((long) node << 32) | thread, count);
    }
}
