package io.cctflow.model;

/**
 * What became of the truncated samples of one (instance, window), by the window their batch
 * belongs to (seed 002 Listing 3.2): merged into the tree by maximal common merging; pending (no
 * candidate yet, to be retried as the tree grows); ambiguous (several candidates: never merged);
 * expired (pending for longer than the job's bound, or evicted by the bound on pending stacks).
 * A pending sample later merged or expired moves from {@code pending} to that outcome, so the
 * four add up to every truncated sample the window received.
 */
public record TruncationCounts(long merged, long pending, long ambiguous, long expired) {
    public static final TruncationCounts NONE = new TruncationCounts(0, 0, 0, 0);

    public TruncationCounts plus(TruncationCounts o) {
        return new TruncationCounts(merged + o.merged, pending + o.pending, ambiguous + o.ambiguous,
                expired + o.expired);
    }

    /** Every truncated sample of the window. */
    public long total() {
        return merged + pending + ambiguous + expired;
    }
}
