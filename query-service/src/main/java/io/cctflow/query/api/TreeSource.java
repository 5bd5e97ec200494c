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
 * limits.max-loaded-nodes} nodes. Merged trees come from the tree cache (a {@link VersionedCache}
 * keyed by the settled versions of the windows summed) when it holds the one of the same settled
 * window versions; they are shared between requests, so no caller may modify one. Thread-safe.
 */
public final class TreeSource {
    private final WindowReader windows;
    private final TopologyReader topology;
    private final Limits limits;
    /** Default bound of the tree cache: one million nodes, about 100 MB of heap (ten trees of 100,000 nodes). */
    static final long DEFAULT_TREE_WEIGHT = 1_000_000;

    private final VersionedCache<Named> cache;

    /** A source with a tree cache of {@link #DEFAULT_TREE_WEIGHT}. */
    public TreeSource(WindowReader windows, TopologyReader topology, Limits limits) {
        this(windows, topology, limits, DEFAULT_TREE_WEIGHT);
    }

    /** @param treeCacheWeight most weight (nodes, about 100 bytes each) of loaded trees kept; 0 turns the cache off */
    public TreeSource(WindowReader windows, TopologyReader topology, Limits limits, long treeCacheWeight) {
        this.windows = windows;
        this.topology = topology;
        this.limits = limits;
        this.cache = new VersionedCache<>("tree", treeCacheWeight, TreeSource::weigh);
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
        return loadVersioned(selection, versions(selection));
    }

    /**
     * The settled versions of the windows a selection's tree is summed from (null when a window is
     * unsettled, or the selection has no instance), found in one round trip when no window was
     * written since they were last listed ({@link RangePlanner#versions}): what caches of answers
     * computed from the tree are keyed by, to look one up before loading the tree.
     */
    public RangePlanner.Versions versions(Selection selection) {
        if (selection.instances().isEmpty()) {
            return new RangePlanner.Versions(null, null);
        }
        return windows.versions(selection.executionKeys(), selection.from().toEpochMilli(),
                selection.to().toEpochMilli());
    }

    /** {@link #loadVersioned(Selection)} with the selection's {@link #versions} found already. */
    public Versioned loadVersioned(Selection selection, RangePlanner.Versions versions) {
        if (selection.instances().isEmpty()) {
            return new Versioned(new Named(new Cct(), RawThreadNames.empty()), null);
        }
        Named cached = cache.get(versions.settledVersions());
        if (cached != null) {
            return new Versioned(cached, versions.settledVersions());
        }
        RangePlanner.Plan plan = versions.plan() != null ? checked(versions.plan()) : plan(selection);
        RangePlanner.Summed summed = plan.summed();
        Named loaded = new Named(rebuild(summed.counts()), summed.counts().rawThreadNames());
        cache.put(summed.settledVersions(), loaded);
        return new Versioned(loaded, summed.settledVersions());
    }

    /** The tree cache (for tests of its bound). */
    VersionedCache<Named> cache() {
        return cache;
    }

    /** A tree's weight: its nodes plus its per-thread entries (about 100 and 40 bytes of heap each), plus its key's. */
    static long weigh(String settledVersions, Named tree) {
        return tree.tree().size() + tree.tree().threadEntries() + settledVersions.length() / 32 + 1;
    }

    /**
     * A selection's tree and the stored windows it was summed from: each time slot apart when they
     * belong to one execution (or one deployment's roll-ups), else summed per execution.
     */
    public record Windows(Cct tree, List<WindowCounts> windows) {
    }

    /**
     * {@link #load} with the windows kept: what a comparison estimates the noise from. Reads every
     * window (from the reader's window cache where it holds them), within the same limit, and
     * reads the roll-ups of instance groups ({@code groups} of them, {@link
     * io.cctflow.graph.Keys#instanceGroup}) where it would read those of whole deployments: the
     * same counts, so the same tree. When it reads any, the windows are summed per group (each
     * execution's under its group's key), else per execution when there are two or more; one
     * group's or one execution's windows come one by one (time slots its only replicates).
     */
    public Windows loadWindows(Selection selection, int groups) {
        if (selection.instances().isEmpty()) {
            return new Windows(new Cct(), List.of());
        }
        RangePlanner.Plan plan = checked(windows.planByGroups(selection.executionKeys(),
                selection.from().toEpochMilli(), selection.to().toEpochMilli(), groups));
        // replicates are groups or executions when there are two or more: their windows are summed
        // before being made whole, once per group or execution rather than once per window
        List<WindowCounts> read = plan.readsInstanceGroups() ? plan.readSummedByGroup()
                : plan.executions() >= 2 ? plan.readSummedByExecution() : List.of();
        if (read.size() < 2) {
            read = plan.read();
        }
        return new Windows(rebuild(WindowReader.sum(read)), read);
    }

    private RangePlanner.Plan plan(Selection selection) {
        return checked(windows.plan(selection.executionKeys(), selection.from().toEpochMilli(),
                selection.to().toEpochMilli()));
    }

    /** The plan, refused beyond {@code limits.max-windows}. */
    private RangePlanner.Plan checked(RangePlanner.Plan plan) {
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
