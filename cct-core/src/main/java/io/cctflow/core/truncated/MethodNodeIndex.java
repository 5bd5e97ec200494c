package io.cctflow.core.truncated;

import io.cctflow.core.Cct;
import io.cctflow.core.collect.LongIntMap;
import java.util.Arrays;

/**
 * The nodes of one {@link Cct}, grouped by method: for a method id, the first node and then a
 * chain of next nodes of the same method. Stored as a head map plus a parallel {@code int[]}
 * chain, so a lookup allocates nothing.
 *
 * <p>Incremental: a {@link Cct} only appends nodes (dense, increasing indexes), so {@link
 * #catchUp()} indexes just the nodes created since the last call, O(1) per new node. The index
 * is bound to its tree for life; keep one per tree (e.g. beside the tree in keyed state).
 *
 * <p>Not thread-safe.
 */
public final class MethodNodeIndex {
    private final Cct tree;
    private final LongIntMap heads;
    private int[] next;
    private int indexed = 1; // the virtual root (index 0) has no method and is never a candidate

    public MethodNodeIndex(Cct tree) {
        this.tree = tree;
        this.heads = new LongIntMap(Math.max(16, tree.size()));
        this.next = new int[Math.max(16, tree.size())];
        catchUp();
    }

    /** The tree this index describes. */
    public Cct tree() {
        return tree;
    }

    /** Indexes the nodes the tree created since the last call. */
    public void catchUp() {
        int size = tree.size();
        if (size < indexed) {
            throw new IllegalStateException("tree shrank from " + indexed + " to " + size
                    + " nodes; a MethodNodeIndex needs an append-only tree, build a new index");
        }
        if (size > next.length) {
            next = Arrays.copyOf(next, Math.max(size, next.length * 2));
        }
        for (int n = indexed; n < size; n++) {
            long method = tree.method(n);
            int head = heads.get(method);
            next[n] = head; // -1 when absent: end of the chain
            heads.put(method, n);
        }
        indexed = size;
    }

    /** A node of {@code method} (as of the last {@link #catchUp()}), or -1. */
    public int first(long method) {
        return heads.get(method);
    }

    /** The next node of the same method as {@code node}, or -1. */
    public int next(int node) {
        return next[node];
    }

    /** Nodes indexed so far, including the root. */
    int indexed() {
        return indexed;
    }
}
