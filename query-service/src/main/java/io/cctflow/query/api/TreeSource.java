package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.graph.read.RangePlanner;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.query.http.ApiException;

/**
 * Loads the merged tree of a {@link Selection}, reading roll-ups where they cover the range and
 * refusing, before the counts are fetched, a read of more than {@code limits.max-windows} rows.
 * Thread-safe.
 */
public final class TreeSource {
    private final WindowReader windows;
    private final TopologyReader topology;
    private final Limits limits;

    public TreeSource(WindowReader windows, TopologyReader topology, Limits limits) {
        this.windows = windows;
        this.topology = topology;
        this.limits = limits;
    }

    public Cct load(Selection selection) {
        if (selection.instances().isEmpty()) {
            return new Cct();
        }
        RangePlanner.Plan plan = windows.plan(selection.executionKeys(), selection.from().toEpochMilli(),
                selection.to().toEpochMilli());
        long rows = plan.windowCount();
        if (rows > limits.maxWindows()) {
            throw ApiException.badRequest("the request would read " + rows + " stored windows, more than the limit"
                    + " limits.max-windows = " + limits.maxWindows() + "; narrow 'from'/'to' or select fewer"
                    + " instances");
        }
        return topology.rebuild(plan.sum());
    }

    public Limits limits() {
        return limits;
    }
}
