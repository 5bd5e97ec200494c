package io.cctflow.graph.read;

import io.cctflow.graph.RollupCoverage;
import io.cctflow.model.WindowCounts;
import java.util.Objects;

/**
 * A stored window with the fine windows it holds: a fine window covers itself, a roll-up what it
 * was summed from ({@link RollupCoverage}); {@code coverage} is null when unknown (a roll-up
 * written before coverage was recorded, or whose coverage was not written with its counts).
 */
public record CoveredWindow(WindowCounts window, RollupCoverage coverage) {
    public CoveredWindow {
        Objects.requireNonNull(window, "window");
    }

    /** A fine window, which covers itself. */
    public static CoveredWindow fine(WindowCounts window) {
        return new CoveredWindow(window, RollupCoverage.of(window));
    }
}
