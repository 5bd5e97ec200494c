package io.cctflow.core.diff;

import io.cctflow.core.Cct;

/** The node weight an overlap is computed over. */
public enum Weight {
    /** Samples whose leaf is the node (exclusive time; sums to the samples of the tree). */
    SELF,
    /** Samples through the node (inclusive time). */
    TOTAL;

    long of(Cct tree, int node) {
        return this == SELF ? tree.self(node) : tree.total(node);
    }
}
