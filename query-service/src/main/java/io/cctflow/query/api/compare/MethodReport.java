package io.cctflow.query.api.compare;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.CommonTree;
import io.cctflow.core.diff.stats.Change;
import io.cctflow.core.diff.stats.Dispersion;
import io.cctflow.core.diff.stats.Measure;
import io.cctflow.core.diff.stats.MethodChange;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.ShareChange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * The method-level part of a comparison: the top methods of a {@link MethodComparison} as rows,
 * each with its calling contexts beneath. Contexts are the method's nodes with no ancestor of the
 * same method (so their method samples add up to the method's), a node of one side paired with its
 * partner in the common tree by method path ({@link CommonTree#byMethodPath}: call-site lines only
 * break ties, so lines that moved between releases do not split a context). Used by one request;
 * not thread-safe.
 */
final class MethodReport {
    private final MethodComparison.Result result;
    private final CommonTree byMethodPath;
    private final Cct treeA;
    private final Cct treeB;
    private final int contextsPerMethod;
    private final List<MethodChange> rows;
    private final Map<Long, List<long[]>> contexts = new HashMap<>();
    private final Map<Long, MethodChange> byId = new HashMap<>();

    /**
     * @param byMethodPath the two sides' trees matched by method path
     * @param contextsPerMethod contexts listed under each method, largest |delta| first
     */
    MethodReport(MethodComparison.Result result, CommonTree byMethodPath, int top, int contextsPerMethod) {
        this.result = result;
        this.byMethodPath = byMethodPath;
        this.treeA = byMethodPath.first();
        this.treeB = byMethodPath.second();
        this.contextsPerMethod = contextsPerMethod;
        this.rows = result.methods().stream().limit(top).toList();
        result.methods().forEach(c -> byId.put(c.method(), c));
        collectContexts();
    }

    /** Every method id the rows and their contexts name, for one signature query. */
    void addMethodsNamed(Set<Long> ids) {
        rows.forEach(r -> ids.add(r.method()));
        contexts.values().forEach(list -> list.forEach(c -> {
            Cct tree = c[1] >= 0 ? treeA : treeB;
            for (int n = (int) (c[1] >= 0 ? c[1] : c[2]); n != Cct.ROOT; n = tree.parent(n)) {
                ids.add(tree.method(n));
            }
        }));
    }

    /** The method time measure of a method (every method of either side has one). */
    Measure methodTime(long method) {
        return byId.get(method).methodTime();
    }

    List<CompareResponse.MethodRow> rows(LongFunction<String> signature) {
        return rows.stream().map(r -> new CompareResponse.MethodRow(signature.apply(r.method()),
                label(r).name(), measure(r.methodTime()), measure(r.selfTime()),
                contexts.getOrDefault(r.method(), List.of()).stream().map(c -> context(c, signature)).toList()))
                .toList();
    }

    CompareResponse.Significance significance(String unit) {
        MethodComparison.Noise n = result.noise();
        Dispersion.Model d = n.dispersion();
        List<CompareResponse.TrendPoint> trend = new ArrayList<>();
        for (long count = 1; count <= (n.labelsWithheld() ? 1 : 100_000); count *= 10) {
            trend.add(new CompareResponse.TrendPoint(count, d.trend(count)));
        }
        return new CompareResponse.Significance(result.level(), n.model(), n.replicatesA(), unit,
                n.replicatesB(), unit, trend, d.priorDf(), d.priorScale(), n.normA(), n.normB(),
                result.methods().size(), result.tested(), result.significant(), MethodComparison.CONFIDENCE);
    }

    /**
     * The row's label: the more significant measure's, or UNCHANGED when neither is significant
     * (WITHHELD when the comparison labels nothing).
     */
    static Change label(MethodChange c) {
        return c.significant() || c.strongest().label() == Change.WITHHELD ? c.strongest().label() : Change.UNCHANGED;
    }

    static CompareResponse.Share measure(Measure m) {
        ShareChange c = m.change();
        return new CompareResponse.Share(c.countA(), c.samplesA(), c.countB(), c.samplesB(), c.shareA(), c.shareB(),
                c.delta(), c.low(), c.high(), c.pValue(), m.qValue(), m.significant(), m.label().name());
    }

    /**
     * Per row method: {order key, node in A or -1, node in B or -1}, largest |delta| first, at most
     * the limit; a node of A carries its partner in B.
     */
    private void collectContexts() {
        Map<Long, Map<Long, long[]>> byMethod = new LinkedHashMap<>();
        rows.forEach(r -> byMethod.put(r.method(), new LinkedHashMap<>()));
        addNodes(treeA, byMethod, true);
        addNodes(treeB, byMethod, false);
        long samplesA = treeA.total(Cct.ROOT);
        long samplesB = treeB.total(Cct.ROOT);
        byMethod.forEach((method, found) -> {
            List<long[]> list = new ArrayList<>(found.values());
            list.sort(Comparator.comparingDouble((long[] c) -> -Math.abs(share(treeB, c[2], samplesB)
                    - share(treeA, c[1], samplesA))).thenComparingLong(c -> c[0]));
            contexts.put(method, list.size() > contextsPerMethod ? list.subList(0, contextsPerMethod) : list);
        });
    }

    /** Contexts of side A with their partners, or side B's contexts without a partner. */
    private void addNodes(Cct tree, Map<Long, Map<Long, long[]>> byMethod, boolean sideA) {
        for (int n = 1; n < tree.size(); n++) {
            Map<Long, long[]> found = byMethod.get(tree.method(n));
            if (found == null || tree.recursiveParent(n) != Cct.NONE) {
                continue;
            }
            if (sideA) {
                found.put((long) n, new long[] {n, n, byMethodPath.partnerInSecond(n)});
            } else if (byMethodPath.partnerInFirst(n) < 0) {
                long key = (long) treeA.size() + n;
                found.put(key, new long[] {key, -1, n});
            }
        }
    }

    private static double share(Cct tree, long node, long samples) {
        return node < 0 || samples == 0 ? 0.0 : (double) tree.total((int) node) / samples;
    }

    private CompareResponse.Context context(long[] c, LongFunction<String> signature) {
        Cct tree = c[1] >= 0 ? treeA : treeB;
        List<String> path = new ArrayList<>();
        for (int n = (int) (c[1] >= 0 ? c[1] : c[2]); n != Cct.ROOT; n = tree.parent(n)) {
            path.add(signature.apply(tree.method(n)));
        }
        Collections.reverse(path);
        long sa = c[1] < 0 ? 0 : treeA.total((int) c[1]);
        long sb = c[2] < 0 ? 0 : treeB.total((int) c[2]);
        double shareA = share(treeA, c[1], treeA.total(Cct.ROOT));
        double shareB = share(treeB, c[2], treeB.total(Cct.ROOT));
        return new CompareResponse.Context(path, sa, sb, shareA, shareB, shareB - shareA);
    }

}
