package io.cctflow.graph.model;

import java.util.Arrays;
import java.util.Objects;

/**
 * Sample counts of one execution in one event-time window: parallel arrays over node ids. The
 * virtual root is included, so {@code total} of the root is every sample of the window. Stored with
 * {@code SET}, so writing the same window again (a replay, an early firing followed by the final
 * one) leaves the latest numbers, never a sum.
 *
 * <p>The arrays are owned by the record once passed in; callers must not modify them afterwards.
 */
public record WindowCounts(
        String executionKey, long windowStartMillis, long windowEndMillis, long[] nodeIds, long[] self, long[] total) {

    public WindowCounts {
        Objects.requireNonNull(executionKey, "executionKey");
        if (nodeIds.length != self.length || nodeIds.length != total.length) {
            throw new IllegalArgumentException("nodeIds, self and total must have the same length");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WindowCounts w
                && executionKey.equals(w.executionKey)
                && windowStartMillis == w.windowStartMillis
                && windowEndMillis == w.windowEndMillis
                && Arrays.equals(nodeIds, w.nodeIds)
                && Arrays.equals(self, w.self)
                && Arrays.equals(total, w.total);
    }

    @Override
    public int hashCode() {
        return Objects.hash(executionKey, windowStartMillis, windowEndMillis, Arrays.hashCode(nodeIds));
    }

    @Override
    public String toString() {
        return "WindowCounts[" + executionKey + " @" + windowStartMillis + ".." + windowEndMillis + ", "
                + nodeIds.length + " nodes]";
    }
}
