package io.cctflow.core.diff;

/** Where a topological difference was found, i.e. its likely reason (seed 000 Sect. 3.3, Table 4). */
public enum Stage {
    /** Stage 1: subtree rooted at a call to an added method (Reason 1). */
    ADDED,
    /** Stage 1: subtree rooted at a call to a deleted method (Reason 1). */
    DELETED,
    /** Stage 2: unmatched subtree under a matched modified method (Reason 2, direct modification). */
    MODIFIED,
    /** Stage 3: unmatched subtree with no modified caller (Reasons 3 and 4: side effect or noise). */
    SIDE_EFFECT
}
