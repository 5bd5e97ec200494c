package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.GraphReader;
import io.cctflow.graph.RangeReader;
import io.cctflow.graph.TreeLoader;
import io.cctflow.query.http.ApiException;

/**
 * Loads the merged tree of a {@link Selection}, reading roll-ups where they cover the range and
 * refusing, before the counts are fetched, a read of more than {@code limits.max-windows} rows,
 * and before the tree is built, a tree of more than {@code limits.max-loaded-nodes} nodes.
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
        RangeReader.Plan plan = ranges.plan(selection.executionKeys(), selection.from().toEpochMilli(),
                selection.to().toEpochMilli());
        long rows = plan.windowCount();
        if (rows > limits.maxWindows()) {
            throw ApiException.badRequest("the request would read " + rows + " stored windows, more than the limit"
                    + " limits.max-windows = " + limits.maxWindows() + "; narrow 'from'/'to' or select fewer"
                    + " instances");
        }
        TreeCounts sum = plan.sum();
        if (sum.nodeIds().length > limits.maxLoadedNodes()) {
            throw ApiException.badRequest("the selection's tree has " + sum.nodeIds().length + " nodes, more than the"
                    + " limit limits.max-loaded-nodes = " + limits.maxLoadedNodes() + "; narrow 'from'/'to' or select"
                    + " fewer instances");
        }
        return loader.rebuild(sum);
    }

    public Limits limits() {
        return limits;
    }
}
