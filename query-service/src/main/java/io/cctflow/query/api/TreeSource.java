package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.graph.GraphReader;
import io.cctflow.graph.RangeReader;
import io.cctflow.graph.TreeLoader;
import io.cctflow.graph.model.WindowCounts;
import io.cctflow.query.http.ApiException;
import java.util.List;

/**
 * Loads the merged tree of a {@link Selection}, reading roll-ups where they cover the range and
 * refusing, before the counts are fetched, a read of more than {@code limits.max-windows} rows.
 * Thread-safe.
 */
public final class TreeSource {
    private final RangeReader ranges;
    private final TreeLoader loader;
    private final Limits limits;

    public TreeSource(GraphReader reader, Limits limits) {
        this.ranges = new RangeReader(reader);
        this.loader = new TreeLoader(reader);
        this.limits = limits;
    }

    public Cct load(Selection selection) {
        if (selection.instances().isEmpty()) {
            return new Cct();
        }
        return loader.rebuild(plan(selection).sum());
    }

    /** The selection's windows (roll-ups where they cover the range), each with its own counts. */
    public List<WindowCounts> windows(Selection selection) {
        return selection.instances().isEmpty() ? List.of() : plan(selection).read();
    }

    private RangeReader.Plan plan(Selection selection) {
        RangeReader.Plan plan = ranges.plan(selection.executionKeys(), selection.from().toEpochMilli(),
                selection.to().toEpochMilli());
        long rows = plan.windowCount();
        if (rows > limits.maxWindows()) {
            throw ApiException.badRequest("the request would read " + rows + " stored windows, more than the limit"
                    + " limits.max-windows = " + limits.maxWindows() + "; narrow 'from'/'to' or select fewer"
                    + " instances");
        }
        return plan;
    }

    public Limits limits() {
        return limits;
    }
}
