package io.cctflow.graph.write;

import io.cctflow.graph.Keys;
import io.cctflow.model.WindowCounts;
import java.util.Objects;

/**
 * What one batch adds to its window: its counts (the window's execution and bounds, the batch's
 * samples and truncation outcomes) and an id that names the batch, or the part of a batch, they
 * come from. A window adds each id once ({@link GraphWriter#addContributions}), so sending a
 * contribution again, in a replay or from a job restarted without state, changes nothing.
 */
public record WindowContribution(WindowCounts counts, long id) {
    public WindowContribution {
        Objects.requireNonNull(counts, "counts");
    }

    /** The key of the fine window it adds to. */
    String windowKey() {
        return Keys.window(counts.executionKey(), counts.windowStartMillis());
    }
}
