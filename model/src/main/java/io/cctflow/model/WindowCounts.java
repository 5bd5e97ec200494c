package io.cctflow.model;

import io.cctflow.core.TreeCounts;
import java.util.Objects;

/**
 * Sample counts of one execution in one event-time window: per node (self, total), per (node,
 * thread) self, and per method (method samples, self samples), as {@link TreeCounts}; and what became
 * of its truncated samples ({@link TruncationCounts}). The virtual
 * root is included, so its total is every sample of the window. Stored with {@code SET}, so writing
 * the same window again (a replay, an early firing followed by the final one) leaves the latest
 * numbers, never a sum.
 */
public record WindowCounts(String executionKey, long windowStartMillis, long windowEndMillis, TreeCounts counts,
        TruncationCounts truncation) {

    public WindowCounts {
        Objects.requireNonNull(executionKey, "executionKey");
        Objects.requireNonNull(counts, "counts");
        Objects.requireNonNull(truncation, "truncation");
        if (windowEndMillis <= windowStartMillis) {
            throw new IllegalArgumentException("window end " + windowEndMillis + " is not after its start "
                    + windowStartMillis);
        }
    }

    /** Counts only, no truncated samples. */
    public WindowCounts(String executionKey, long windowStartMillis, long windowEndMillis, TreeCounts counts) {
        this(executionKey, windowStartMillis, windowEndMillis, counts, TruncationCounts.NONE);
    }

    @Override
    public String toString() {
        return "WindowCounts[" + executionKey + " @" + windowStartMillis + ".." + windowEndMillis + ", " + counts
                + ", " + truncation + "]";
    }
}
