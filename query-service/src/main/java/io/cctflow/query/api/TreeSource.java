package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.read.RangePlanner;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.WindowCounts;
import io.cctflow.query.http.ApiException;
import java.util.List;

/**
 * Loads the merged tree of a {@link Selection}, or its windows one by one, reading roll-ups where
 * they cover the range and refusing, before the counts are fetched, a read of more than {@code
 * limits.max-windows} rows, and before the tree is built, a tree of more than {@code
 * limits.max-loaded-nodes} nodes. Thread-safe.
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
        TreeCounts sum = plan(selection).sum();
        if (sum.nodeIds().length > limits.maxLoadedNodes()) {
            throw ApiException.badRequest("the selection's tree has " + sum.nodeIds().length + " nodes, more than the"
                    + " limit limits.max-loaded-nodes = " + limits.maxLoadedNodes() + "; narrow 'from'/'to' or select"
                    + " fewer instances");
        }
        return topology.rebuild(sum);
    }

    /** The selection's windows (roll-ups where they cover the range), each with its own counts. */
    public List<WindowCounts> windows(Selection selection) {
        return selection.instances().isEmpty() ? List.of() : plan(selection).read();
    }

    private RangePlanner.Plan plan(Selection selection) {
        RangePlanner.Plan plan = windows.plan(selection.executionKeys(), selection.from().toEpochMilli(),
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
