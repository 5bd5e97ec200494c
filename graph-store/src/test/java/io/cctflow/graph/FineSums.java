package io.cctflow.graph;

import io.cctflow.core.TreeCounts;
import io.cctflow.model.WindowCounts;
import java.util.Collection;
import java.util.List;

/** The reference every range read is checked against, brute force. */
public final class FineSums {
    private FineSums() {
    }

    /** Every fine window of the keys overlapping [from, to), folded with plus. */
    public static TreeCounts overlapping(List<WindowCounts> fine, Collection<String> keys, long from, long to) {
        TreeCounts sum = TreeCounts.empty();
        for (WindowCounts w : fine) {
            if (keys.contains(w.executionKey()) && w.windowStartMillis() < to && w.windowEndMillis() > from) {
                sum = sum.plus(w.counts());
            }
        }
        return sum;
    }
}
