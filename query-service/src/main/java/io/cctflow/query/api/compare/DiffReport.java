package io.cctflow.query.api.compare;

import io.cctflow.core.Cct;
import io.cctflow.core.baseline.BaselineComparison;
import io.cctflow.core.diff.DiffResult;
import io.cctflow.core.diff.Difference;
import io.cctflow.core.diff.Stage;
import io.cctflow.core.diff.StageSummary;
import io.cctflow.core.diff.Weight;
import io.cctflow.core.diff.WeightDifference;
import io.cctflow.core.diff.stats.Measure;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.query.api.ContextEndpoint;
import io.cctflow.query.api.compare.CompareEndpoint.Loaded;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns a {@link DiffResult} over two loaded sides into a {@link CompareResponse}: node indexes
 * become calling contexts of method signatures (one query for every method named), and each
 * ranked node's method gets its method time on both sides, the baseline change arrow and the
 * label of its method-time test; the method rows of a {@link MethodReport} come first. Used by one
 * request; not thread-safe.
 */
final class DiffReport {
    private final CatalogueReader catalogue;
    private final Loaded a;
    private final Loaded b;
    private final Weight weight;
    private final int top;
    private final MethodReport methods;
    private final Map<Long, CompareResponse.MethodTimeChange> methodTimes = new HashMap<>();
    private Map<Long, String> signatures;

    DiffReport(CatalogueReader catalogue, Loaded a, Loaded b, Weight weight, int top, MethodReport methods) {
        this.catalogue = catalogue;
        this.a = a;
        this.b = b;
        this.weight = weight;
        this.top = top;
        this.methods = methods;
    }

    CompareResponse build(DiffResult result, CompareResponse.Noise noise, CodeChanges changes,
            CompareResponse.CommonTreeByMethod byMethodPath, CompareResponse.Significance significance,
            String offered) {
        List<Difference> attributed = attributed(result.differences());
        Set<Long> named = methodsNamed(result.weightDifferences(), attributed);
        methods.addMethodsNamed(named);
        signatures = catalogue.signatures(named);
        int nodesA = a.tree().size() - 1;
        int nodesB = b.tree().size() - 1;
        int changed = significance.significantMethods();
        return new CompareResponse(
                changed > 0,
                message(significance, offered),
                significance,
                methods.rows(this::signature),
                a.selection().service(),
                side(a),
                side(b),
                weight.name().toLowerCase(Locale.ROOT),
                new CompareResponse.CommonTreeSize(result.commonTreeSize(), share(result.commonTreeSize(), nodesA),
                        share(result.commonTreeSize(), nodesB), byMethodPath),
                new CompareResponse.Overlaps(result.overlapSelf(), result.overlapTotal()),
                result.score(),
                noise,
                new CompareResponse.Changes(changes.manifests(), changes.added(), changes.deleted(),
                        changes.modified(), changes.note()),
                result.stages().stream().map(DiffReport::stage).toList(),
                result.weightDifferences().stream().map(this::weightChange).toList(),
                attributed.stream().map(this::attribution).toList(),
                ContextEndpoint.LINK);
    }

    /**
     * The verdict in words: how many methods changed, {@code "no significant change"}, or, when no
     * unit gives both sides two or more replicates, {@link MethodComparison#WITHHELD_MESSAGE} and
     * what each side offered ({@code offered}).
     */
    static String message(CompareResponse.Significance s, String offered) {
        if (MethodComparison.WITHHELD.equals(s.model())) {
            return MethodComparison.WITHHELD_MESSAGE + " (" + offered + "; both sides need two or more instances, "
                    + "or both two or more instance groups, or both two or more windows)";
        }
        int changed = s.significantMethods();
        return changed == 0 ? "no significant change"
                : changed + (changed == 1 ? " method" : " methods") + " changed significantly";
    }

    static CompareResponse.Side side(Loaded s) {
        return new CompareResponse.Side(ComparisonSide.deployment(s.selection()).orElse(null),
                s.selection().instances().stream().map(i -> i.instanceId()).toList(),
                s.selection().from().toString(), s.selection().to().toString(),
                s.tree().total(Cct.ROOT), s.tree().size() - 1);
    }

    private static double share(int common, int nodes) {
        return nodes == 0 ? 1.0 : (double) common / nodes;
    }

    private static CompareResponse.StageCounts stage(StageSummary s) {
        return new CompareResponse.StageCounts(s.stage().name(), s.subtreesFirst(), s.nodesFirst(),
                s.subtreesSecond(), s.nodesSecond());
    }

    /** Per stage, the {@code top} subtrees with the most samples (then most nodes), stage order kept. */
    private List<Difference> attributed(List<Difference> all) {
        List<Difference> out = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            all.stream()
                    .filter(d -> d.stage() == stage)
                    .sorted(Comparator.comparingLong((Difference d) -> tree(d.inSecond()).total(d.root())).reversed()
                            .thenComparing(Comparator.comparingInt(Difference::nodes).reversed())
                            .thenComparing(Difference::inSecond)
                            .thenComparingInt(Difference::root))
                    .limit(top)
                    .forEach(out::add);
        }
        return out;
    }

    private Set<Long> methodsNamed(List<WeightDifference> ranked, List<Difference> attributed) {
        Set<Long> ids = new HashSet<>();
        for (WeightDifference w : ranked) {
            addPathMethods(a.tree(), w.nodeFirst(), ids);
        }
        for (Difference d : attributed) {
            addPathMethods(tree(d.inSecond()), d.root(), ids);
            Arrays.stream(d.suspectMethods()).forEach(ids::add);
        }
        return ids;
    }

    private static void addPathMethods(Cct tree, int node, Set<Long> ids) {
        for (int n = node; n != Cct.ROOT; n = tree.parent(n)) {
            ids.add(tree.method(n));
        }
    }

    private Cct tree(boolean second) {
        return second ? b.tree() : a.tree();
    }

    private String signature(long method) {
        String s = signatures.get(method);
        return s != null ? s : "unknown method " + Long.toHexString(method);
    }

    /** The calling context of {@code node}, outermost frame first, virtual root left out. */
    private List<CompareResponse.Frame> path(Cct tree, int node) {
        List<CompareResponse.Frame> frames = new ArrayList<>();
        for (int n = node; n != Cct.ROOT; n = tree.parent(n)) {
            frames.add(new CompareResponse.Frame(signature(tree.method(n)), tree.callSiteLine(n)));
        }
        Collections.reverse(frames);
        return frames;
    }

    private CompareResponse.WeightChange weightChange(WeightDifference w) {
        long wa = weight == Weight.SELF ? a.tree().self(w.nodeFirst()) : a.tree().total(w.nodeFirst());
        long wb = weight == Weight.SELF ? b.tree().self(w.nodeSecond()) : b.tree().total(w.nodeSecond());
        return new CompareResponse.WeightChange(signature(w.method()),
                Long.toString(a.tree().id(w.nodeFirst())), Long.toString(b.tree().id(w.nodeSecond())),
                path(a.tree(), w.nodeFirst()), wa, wb,
                w.pweightFirst(), w.pweightSecond(), w.delta(), w.overlapAfter(), methodTime(w.method()));
    }

    /** One pass over each tree per distinct method (cached: a method often ranks at several nodes). */
    private CompareResponse.MethodTimeChange methodTime(long method) {
        return methodTimes.computeIfAbsent(method, m -> {
            MethodTime ta = MethodTime.of(Scope.whole(a.tree()), m);
            MethodTime tb = MethodTime.of(Scope.whole(b.tree()), m);
            BaselineComparison arrow = BaselineComparison.of(tb.methodTime(), ta.methodTime());
            Measure test = methods.methodTime(m);
            return new CompareResponse.MethodTimeChange(ta.methodSamples(), ta.scopeSamples(), ta.methodTime(),
                    tb.methodSamples(), tb.scopeSamples(), tb.methodTime(), arrow.angle(), arrow.degrees(),
                    String.format(Locale.ROOT, "#%06x", arrow.rgb()), tb.methodTime() - ta.methodTime(),
                    test.qValue(), test.significant(), test.label().name());
        });
    }

    private CompareResponse.Attribution attribution(Difference d) {
        Cct tree = tree(d.inSecond());
        return new CompareResponse.Attribution(d.stage().name(), d.inSecond() ? "b" : "a", signature(d.method()),
                Long.toString(tree.id(d.root())), path(tree, d.root()), d.nodes(), tree.total(d.root()),
                Arrays.stream(d.suspectMethods()).mapToObj(this::signature).toList());
    }
}
