package io.cctflow.core;

import io.cctflow.core.internal.LongSums;
import io.cctflow.core.internal.NodeThreadKey;
import java.util.Arrays;

/**
 * The sample counts of some stacks (e.g. one batch) over an existing tree's topology, without a
 * tree of their own: merging a stack finds its leaf in the tree ({@link Cct#leaf}: one hash lookup
 * for a stack the tree has, the nodes it lacks created as {@link Cct#addStack} does), but charges
 * the sample here. {@link TreeCounts#of(StackCounts)} equals {@link TreeCounts#of(Cct)} of a fresh
 * {@code Cct} into which only these stacks were merged: no node of a second tree is created, and
 * recursive parents come from the tree, where each node's was computed once. The counts in the
 * tree itself are not changed.
 *
 * <p>A sample is charged to its leaf only; the first time a leaf is charged, it and its ancestors
 * not yet passed are recorded, so the work per stack is one lookup plus the nodes this object had
 * not seen. Totals are the sums of self counts over subtrees, summed bottom-up over the nodes
 * passed when first read after a change.
 *
 * <p>Node indexes are the tree's, so the tree may grow meanwhile (a {@code Cct} only appends) and
 * paths completed in it by others (e.g. a merged truncated stack) can be charged with {@link
 * #addPath}. Not thread-safe.
 */
public final class StackCounts {
    private Cct tree;
    private long[] self;
    private long[] total;
    private boolean[] touched;
    /** Nodes passed, parents before children. */
    private int[] touchedNodes;
    private int touchedCount;
    /** Whether {@link #total} is stale: a sample was charged since it was last summed. */
    private boolean totalsStale;
    /** Scratch: nodes between a new leaf and the nearest node already passed. */
    private int[] chain = new int[64];
    /** Self counts per (node, thread): {@link NodeThreadKey}. */
    private LongSums threadSelf = new LongSums(256);

    /** Counts over {@code tree}, none yet (the root is touched with zero counts, as a fresh tree has it). */
    public StackCounts(Cct tree) {
        this.tree = tree;
        int cap = Math.max(16, tree.size());
        self = new long[cap];
        total = new long[cap];
        touched = new boolean[cap];
        touchedNodes = new int[64];
        touched[Cct.ROOT] = true;
        touchedNodes[touchedCount++] = Cct.ROOT;
    }

    /**
     * Forgets every count and starts over, on {@code tree} (this one or another), as a new {@code
     * StackCounts(tree)} would, but keeping the arrays: a caller that merges batch after batch then
     * allocates nothing per batch but what the trees outgrow. O(nodes passed).
     *
     * @return this
     */
    public StackCounts reset(Cct tree) {
        for (int k = 0; k < touchedCount; k++) {
            int n = touchedNodes[k];
            self[n] = 0;
            total[n] = 0;
            touched[n] = false;
        }
        touchedCount = 0;
        totalsStale = false;
        threadSelf = new LongSums(256);
        this.tree = tree;
        touched[Cct.ROOT] = true;
        touchedNodes[touchedCount++] = Cct.ROOT;
        return this;
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
        int leaf = tree.leaf(methodIds, callSiteLines, depth);
        addPath(leaf, thread, count);
        return leaf;
    }

    /** Charges {@code count} samples of {@code thread} to an existing node of the tree as leaf, and its ancestors. */
    public void addPath(int leaf, int thread, long count) {
        if (thread < 0 || thread >= tree.threads()) {
            throw new IllegalArgumentException("unknown thread id " + thread + "; ids come from thread(String)");
        }
        touchWithAncestors(leaf);
        self[leaf] += count;
        totalsStale = true;
        threadSelf.add(NodeThreadKey.of(leaf, thread), count);
    }

    /** Samples merged so far: the root's total. */
    public long samples() {
        return total(Cct.ROOT);
    }

    /** Number of nodes the stacks passed, the root included. */
    public int nodes() {
        return touchedCount;
    }

    /** The {@code k}-th node passed (tree index), parents before children. */
    public int node(int k) {
        return touchedNodes[k];
    }

    public long self(int node) {
        return node < self.length ? self[node] : 0;
    }

    public long total(int node) {
        if (totalsStale) {
            sumTotals();
        }
        return node < total.length ? total[node] : 0;
    }

    /** Number of (node, thread) pairs with a self count. */
    public int threadEntries() {
        return threadSelf.size();
    }

    public int threadEntryNode(int e) {
        return NodeThreadKey.node(threadSelf.key(e));
    }

    public int threadEntryThread(int e) {
        return NodeThreadKey.thread(threadSelf.key(e));
    }

    public long threadEntrySelf(int e) {
        return threadSelf.sum(e);
    }

    /** Records {@code leaf} and its ancestors not yet passed, parents first. */
    private void touchWithAncestors(int leaf) {
        if (leaf >= touched.length) {
            int cap = Math.max(leaf + 1, touched.length * 2);
            self = Arrays.copyOf(self, cap);
            total = Arrays.copyOf(total, cap);
            touched = Arrays.copyOf(touched, cap);
        }
        int links = 0;
        // the root is always touched, and a parent's index is below its child's: the array holds them
        for (int n = leaf; !touched[n]; n = tree.parent(n)) {
            if (links == chain.length) {
                chain = Arrays.copyOf(chain, links * 2);
            }
            chain[links++] = n;
            touched[n] = true;
        }
        if (touchedCount + links > touchedNodes.length) {
            touchedNodes = Arrays.copyOf(touchedNodes, Math.max(touchedCount + links, touchedCount * 2));
        }
        for (int i = links - 1; i >= 0; i--) {
            touchedNodes[touchedCount++] = chain[i];
        }
    }

    /** Totals bottom-up: each passed node's self plus its children's totals (children come after parents). */
    private void sumTotals() {
        for (int k = 0; k < touchedCount; k++) {
            int n = touchedNodes[k];
            total[n] = self[n];
        }
        for (int k = touchedCount - 1; k > 0; k--) {
            int n = touchedNodes[k];
            total[tree.parent(n)] += total[n];
        }
        totalsStale = false;
    }
}
