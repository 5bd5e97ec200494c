package io.cctflow.query.api.compare;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.CommonTree;
import io.cctflow.core.diff.DiffResult;
import io.cctflow.core.diff.Overlap;
import io.cctflow.core.diff.TreeDiff;
import io.cctflow.core.diff.Weight;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.graph.Keys;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.query.api.Selection;
import io.cctflow.query.api.SideReplicates;
import io.cctflow.query.api.ThreadParams;
import io.cctflow.query.api.TreeSource;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code GET /api/v1/compare}: two selections (instances, instance sets, deployments or time
 * ranges) compared method by method first ({@link MethodComparison}: each method's method time and
 * self time on both sides with counts, interval, p-value and Benjamini-Hochberg q-value, the noise
 * estimated from the sides' instances, instance groups or windows when each side has two or more
 * ({@link SideReplicates#pair}; a whole deployment over rolled-up hours is read from the roll-ups of
 * its instance groups, and has those groups as replicates), calling contexts
 * matched by method path beneath each method, call-site lines breaking ties only: {@link
 * CommonTree#byMethodPath}), then with cct-core's {@link TreeDiff} (seed 000,
 * PARCS): relaxed common tree, the three stages with attributions when CodeManifests give a
 * change list, overlap, matching score and the ranked weight differences with the baseline change
 * arrow of each method's method time.
 *
 * <p>{@code fdr} ({@value #MIN_FDR}..{@value #MAX_FDR}, default 0.05) is the false discovery
 * rate; {@code contexts} (0..{@value #MAX_CONTEXTS}, default {@value #DEFAULT_CONTEXTS}) the
 * contexts listed per method; {@code top} also bounds the method rows.
 *
 * <p>Parameters: the {@link Selection} parameters, each either shared ({@code version}) or per
 * side ({@code a.version}, {@code b.version}; a side's own value wins); {@code weight}
 * ({@code self} or {@code total}, default {@code self}); {@code top} (1..{@value #MAX_TOP},
 * default {@value #DEFAULT_TOP}); the noise threshold as {@code threshold} (0..1) or as two noise
 * sides {@code noise.a.instance} and {@code noise.b.instance} (more {@code noise.*} selection
 * parameters optional), whose overlap becomes the threshold; {@code thread} and {@code
 * thread-group} ({@link ThreadParams}) count the selected threads' samples on every side.
 * Stateless; thread-safe.
 */
public final class CompareEndpoint implements JsonHandler.Endpoint {
    static final int DEFAULT_TOP = 20;
    static final int MAX_TOP = 1000;
    static final double MIN_FDR = 0.0001;
    static final double MAX_FDR = 0.5;
    static final int DEFAULT_CONTEXTS = 5;
    static final int MAX_CONTEXTS = 100;
    static final List<String> SIDE_PREFIXES = List.of("", "a.", "b.", "noise.", "noise.a.", "noise.b.");
    public static final Set<String> PARAMS = allowedParams();

    /** Loads the second side of a comparison; idle threads end after a minute. */
    private static final ExecutorService LOADERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "cctflow-compare-load");
        t.setDaemon(true);
        return t;
    });

    private final CatalogueReader catalogue;
    private final TreeSource trees;
    private final int instanceGroups;

    /** {@link #CompareEndpoint(CatalogueReader, TreeSource, int)} with {@value Keys#DEFAULT_INSTANCE_GROUPS} groups. */
    public CompareEndpoint(CatalogueReader catalogue, TreeSource trees) {
        this(catalogue, trees, Keys.DEFAULT_INSTANCE_GROUPS);
    }

    /**
     * @param trees loads each side within the service's limits, from roll-ups where they cover the range
     * @param instanceGroups the roll-up pass's instance groups per deployment ({@code rollup.instance-groups}):
     *     a side read from their roll-ups has the groups as replicates
     */
    public CompareEndpoint(CatalogueReader catalogue, TreeSource trees, int instanceGroups) {
        this.catalogue = catalogue;
        this.trees = trees;
        this.instanceGroups = Keys.checkInstanceGroups(instanceGroups);
    }

    private static Set<String> allowedParams() {
        Set<String> names = new HashSet<>(Set.of("weight", "top", "threshold", "fdr", "contexts"));
        names.addAll(ThreadParams.PARAMS);
        for (String prefix : SIDE_PREFIXES) {
            ComparisonSide.SELECTION_PARAMS.forEach(n -> names.add(prefix + n));
        }
        return Set.copyOf(names);
    }

    /** A side's selection, its tree and its replicates. */
    record Loaded(String name, Selection selection, Cct tree, SideReplicates replicates) {
    }

    @Override
    public CompareResponse handle(QueryParams params) {
        params.allowOnly(PARAMS);
        int top = top(params);
        Weight weight = weight(params);
        double fdr = params.number("fdr", MIN_FDR, MAX_FDR).orElse(MethodComparison.DEFAULT_LEVEL);
        int contexts = params.integer("contexts", 0, MAX_CONTEXTS).orElse(DEFAULT_CONTEXTS);
        Optional<Double> threshold = threshold(params);
        ThreadParams threads = ThreadParams.of(params);
        boolean noise = ComparisonSide.given(params, "noise.") || ComparisonSide.given(params, "noise.a.")
                || ComparisonSide.given(params, "noise.b.");
        if (!ComparisonSide.given(params, "a.") && !ComparisonSide.given(params, "b.")) {
            throw ApiException.badRequest("no side-specific parameter: give what differs between the sides as "
                    + "a.<name> and b.<name>, e.g. a.version and b.version, a.instance and b.instance, or "
                    + "a.from/a.to and b.from/b.to");
        }
        if (noise && threshold.isPresent()) {
            throw ApiException.badRequest("parameter 'threshold' and the noise.* parameters both set the noise "
                    + "threshold; give one of them");
        }
        Loaded[] sides = loadBoth("a", ComparisonSide.select(params, catalogue, trees.limits(), "a.", ""),
                "b", ComparisonSide.select(params, catalogue, trees.limits(), "b.", ""), threads);
        Loaded a = sides[0];
        Loaded b = sides[1];
        CompareResponse.Noise noiseOut;
        if (noise) {
            noiseOut = noiseFromInstances(params, weight, threads);
        } else {
            noiseOut = new CompareResponse.Noise(threshold.isPresent() ? "threshold" : "none",
                    threshold.orElse(1.0), null, null);
        }
        CodeChanges changes = CodeChanges.between(catalogue, a.selection(), b.selection());
        DiffResult result = TreeDiff.compare(a.tree(), b.tree(), changes.changes(), weight, noiseOut.threshold(), top);
        SideReplicates.Pair replicates = SideReplicates.pair(a.replicates(), b.replicates());
        MethodComparison.Result tested = MethodComparison.compare(replicates.a(), replicates.b(), fdr);
        CommonTree byMethodPath = CommonTree.byMethodPath(a.tree(), b.tree());
        MethodReport methods = new MethodReport(tested, byMethodPath, top, contexts);
        return new DiffReport(catalogue, a, b, weight, top, methods).build(result, noiseOut, changes,
                commonTreeByMethod(byMethodPath), methods.significance(replicates.unit()),
                replicates.offered());
    }

    /** The common tree by method path: matched pairs and their share of each side's nodes. */
    private static CompareResponse.CommonTreeByMethod commonTreeByMethod(CommonTree byMethodPath) {
        int size = byMethodPath.size();
        int nodesA = byMethodPath.first().size() - 1;
        int nodesB = byMethodPath.second().size() - 1;
        return new CompareResponse.CommonTreeByMethod(size, nodesA, nodesB, nodesA == 0 ? 1.0 : (double) size / nodesA,
                nodesB == 0 ? 1.0 : (double) size / nodesB);
    }

    /** Loads two sides at once (the reads of each side are sequential round trips to Neo4j). */
    private Loaded[] loadBoth(String nameA, Selection a, String nameB, Selection b, ThreadParams threads) {
        CompletableFuture<Loaded> second = CompletableFuture.supplyAsync(() -> load(nameB, b, threads), LOADERS);
        Loaded first;
        try {
            first = load(nameA, a, threads);
        } catch (RuntimeException e) {
            second.cancel(false);
            throw e;
        }
        try {
            return new Loaded[] {first, second.join()};
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    /**
     * A side's tree and replicates. With a thread filter, the stored windows' per-method tables
     * (every thread) cannot serve as replicates: the side is then one replicate, its filtered tree.
     */
    private Loaded load(String name, Selection s, ThreadParams threads) {
        TreeSource.Windows windows = trees.loadWindows(s, instanceGroups);
        Cct tree = threads.apply(windows.tree());
        if (tree.total(Cct.ROOT) == 0) {
            throw ApiException.notFound("side " + name + " selects no samples: service '" + s.service() + "'"
                    + (s.version() == null ? "" : " version '" + s.version() + "'") + ", instances "
                    + s.instances().stream().map(i -> i.instanceId()).toList() + ", " + s.from() + " to " + s.to());
        }
        return new Loaded(name, s, tree, threads.all() ? SideReplicates.of(windows.windows(), instanceGroups)
                : SideReplicates.whole(MethodSamples.of(tree)));
    }

    /** The overlap of two instances of one deployment: what noise alone leaves of a perfect match. */
    private CompareResponse.Noise noiseFromInstances(QueryParams params, Weight weight, ThreadParams threads) {
        for (String key : List.of("noise.a.instance", "noise.b.instance")) {
            if (params.all(key).isEmpty()) {
                throw ApiException.badRequest("missing parameter '" + key + "': the noise option compares two "
                        + "instances of one deployment, noise.a.instance and noise.b.instance");
            }
        }
        Loaded[] sides = loadBoth("noise.a", ComparisonSide.select(params, catalogue, trees.limits(), "noise.a.", "noise.", ""),
                "noise.b", ComparisonSide.select(params, catalogue, trees.limits(), "noise.b.", "noise.", ""), threads);
        Loaded na = sides[0];
        Loaded nb = sides[1];
        Optional<String> va = ComparisonSide.deployment(na.selection());
        if (va.isEmpty() || !va.equals(ComparisonSide.deployment(nb.selection()))
                || !na.selection().service().equals(nb.selection().service())) {
            throw ApiException.badRequest("parameters 'noise.a.instance' and 'noise.b.instance' must name instances "
                    + "of one deployment (one service and version); add noise.version to pick it");
        }
        double overlap = Overlap.of(CommonTree.relaxed(na.tree(), nb.tree()), weight);
        return new CompareResponse.Noise("instances", overlap, DiffReport.side(na), DiffReport.side(nb));
    }

    private static int top(QueryParams params) {
        Optional<String> text = params.optional("top");
        if (text.isEmpty()) {
            return DEFAULT_TOP;
        }
        try {
            int top = Integer.parseInt(text.get());
            if (top >= 1 && top <= MAX_TOP) {
                return top;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ApiException.badRequest("parameter 'top' must be an integer from 1 to " + MAX_TOP + ", got '"
                + text.get() + "'");
    }

    private static Weight weight(QueryParams params) {
        String text = params.optional("weight").orElse("self");
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "self" -> Weight.SELF;
            case "total" -> Weight.TOTAL;
            default -> throw ApiException.badRequest("parameter 'weight' must be 'self' or 'total', got '" + text
                    + "'");
        };
    }

    private static Optional<Double> threshold(QueryParams params) {
        return params.optional("threshold").map(text -> {
            try {
                double t = Double.parseDouble(text);
                if (t >= 0 && t <= 1) {
                    return t;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw ApiException.badRequest("parameter 'threshold' must be an overlap from 0 to 1, got '" + text
                    + "'");
        });
    }
}
