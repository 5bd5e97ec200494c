package io.cctflow.graph.maintenance;

import io.cctflow.core.TreeCounts;
import io.cctflow.model.Resolution;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.List;

/**
 * The sum of windows added one at a time, holding at most {@value #PENDING} of them (or the number
 * given) besides the sum: they are folded in with one {@link TreeCounts#sum} pass, so a deployment
 * of many executions costs neither one merge per execution nor all its windows in memory at once.
 *
 * <p>Not thread-safe.
 */
final class RunningSum {
    /** Windows held before they are folded into the sum, by default. */
    static final int PENDING = 16;

    private TreeCounts sum = TreeCounts.empty();
    private TruncationCounts truncation = TruncationCounts.NONE;
    private final int most;
    private final List<TreeCounts> pending;

    RunningSum() {
        this(PENDING);
    }

    /** A sum that folds every {@code most} windows. */
    RunningSum(int most) {
        if (most < 1) {
            throw new IllegalArgumentException("most must be >= 1, got " + most);
        }
        this.most = most;
        this.pending = new ArrayList<>(most + 1);
    }

    void add(WindowCounts w) {
        pending.add(w.counts());
        truncation = truncation.plus(w.truncation());
        if (pending.size() >= most) {
            fold();
        }
    }

    /** The sum so far as one {@code resolution} window of {@code key} starting at {@code start}. */
    WindowCounts window(String key, long start, Resolution resolution) {
        fold();
        return new WindowCounts(key, start, start + resolution.millis(), sum, truncation);
    }

    private void fold() {
        if (pending.isEmpty()) {
            return;
        }
        pending.add(0, sum);
        sum = TreeCounts.sum(pending);
        pending.clear();
    }
}
