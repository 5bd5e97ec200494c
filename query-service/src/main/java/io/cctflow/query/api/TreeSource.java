package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.core.RawThreadNames;
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
 * limits.max-loaded-nodes} nodes. Merged trees come from the tree cache ({@link TreeCache}) when it
 * holds the one of the same settled window versions; they are shared between requests, so no
 * caller may modify one. Thread-safe.
 */
public final class TreeSource {
    private final WindowReader windows;
    private final TopologyReader topology;
    private final Limits limits;
    private final TreeCache cache;

    /** A source with a tree cache of {@link TreeCache#DEFAULT_WEIGHT}. */
    public TreeSource(WindowReader windows, TopologyReader topology, Limits limits) {
        this(windows, topology, limits, TreeCache.DEFAULT_WEIGHT);
    }

    /** @param treeCacheWeight most weight (nodes, about 100 bytes each) of loaded trees kept; 0 turns the cache off */
    public TreeSource(WindowReader windows, TopologyReader topology, Limits limits, long treeCacheWeight) {
        this.windows = windows;
        this.topology = topology;
        this.limits = limits;
        this.cache = new TreeCache(treeCacheWeight);
    }

    public Cct load(Selection selection) {
        return loadWithThreadNames(selection).tree();
    }

    /** A selection's tree and the raw thread names stored behind its pool names (bounded per pool). */
    public record Named(Cct tree, RawThreadNames rawThreadNames) {
    }

    /** {@link #load} with the raw thread names of the windows summed. */
    public Named loadWithThreadNames(Selection selection) {
        return loadVersioned(selection).named();
    }

    /**
     * A selection's tree and the tree cache's key of it: the settled versions of the windows it was
     * summed from ({@link RangePlanner.Plan#settledVersions}), null when a window is unsettled.
     */
    public record Versioned(Named named, String settledVersions) {
    }

    /** {@link #loadWithThreadNames} with the settled versions it was loaded from. */
    public Versioned loadVersioned(Selection selection) {
        if (selection.instances().isEmpty()) {
            return new Versioned(new Named(new Cct(), RawThreadNames.empty()), null);
        }
        RangePlanner.Plan plan = plan(selection);
        Named cached = cache.get(plan.settledVersions());
        if (cached != null) {
            return new Versioned(cached, plan.settledVersions());
        }
        RangePlanner.Summed summed = plan.summed();
        Named loaded = new Named(rebuild(summed.counts()), summed.counts().rawThreadNames());
        cache.put(summed.settledVersions(), loaded);
        return new Versioned(loaded, summed.settledVersions());
    }

    /** The tree cache (for tests of its bound). */
    TreeCache cache() {
        return cache;
    }

    /**
     * A selection's tree and the stored windows it was summed from: each time slot apart when they
     * belong to one execution (or one deployment's roll-ups), else summed per execution.
     */
    public record Windows(Cct tree, List<WindowCounts> windows) {
    }

    /**
     * {@link #load} with the windows kept: what a comparison estimates the noise from. Reads every
     * window (from the reader's window cache where it holds them), within the same limit.
     */
    public Windows loadWindows(Selection selection) {
        if (selection.instances().isEmpty()) {
            return new Windows(new Cct(), List.of());
        }
        RangePlanner.Plan plan = plan(selection);
        // replicates are executions when there are two or more: their windows are summed before
        // being made whole, once per execution rather than once per window
        List<WindowCounts> read = plan.executions() >= 2 ? plan.readSummedByExecution() : plan.read();
        return new Windows(rebuild(WindowReader.sum(read)), read);
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

    /** The tree of summed counts, refused beyond {@code limits.max-loaded-nodes}. */
    private Cct rebuild(TreeCounts sum) {
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

    public Limits limits() {
        return limits;
    }
}
