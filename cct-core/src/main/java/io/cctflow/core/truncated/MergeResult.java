package io.cctflow.core.truncated;

/** Outcome of one attempt to merge a truncated stack (seed 002 Listing 3.2, the three exits). */
public enum MergeResult {
    /** A unique candidate was found and the stack was added under it. */
    MERGED,
    /**
     * No node of the tree matches; the tree may grow to contain a match, so the caller should keep
     * the stack and retry later.
     */
    NO_CANDIDATE,
    /**
     * The whole stack matched but several candidates (or too few frames for the match threshold)
     * remain. The tree only grows, so candidates never disappear: retrying can never succeed and
     * the stack should be dropped (and counted).
     */
    AMBIGUOUS;

    /** Whether a later attempt, on a grown tree, may give a different outcome. */
    public boolean retryable() {
        return this == NO_CANDIDATE;
    }
}
