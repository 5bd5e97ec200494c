package io.cctflow.query.api.compare;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.stats.Change;
import io.cctflow.core.diff.stats.Measure;
import io.cctflow.core.diff.stats.MethodChange;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.ShareChange;
import io.cctflow.query.api.SideReplicates;
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
 * each with its calling contexts beneath. Contexts are nodes of the two trees' projections by
 * method ({@code MethodContexts}: call-site lines dropped, so lines that moved between releases do
 * not split a context), matched by their method path; a method's contexts are its nodes with no
 * ancestor of the same method, so their method samples add up to the method's. Used by one
 * request; not thread-safe.
 */
final class MethodReport {
    private final MethodComparison.Result result;
    private final Cct byMethodA;
    private final Cct byMethodB;
    private final int contextsPerMethod;
    private final List<MethodChange> rows;
    private final Map<Long, List<long[]>> contexts = new HashMap<>();
    private final Map<Long, MethodChange> byId = new HashMap<>();

    /**
     * @param byMethodA side a's tree projected by method ({@code MethodContexts.of})
     * @param contextsPerMethod contexts listed under each method, largest |delta| first
     */
    MethodReport(MethodComparison.Result result, Cct byMethodA, Cct byMethodB, int top, int contextsPerMethod) {
        this.result = result;
        this.byMethodA = byMethodA;
        this.byMethodB = byMethodB;
        this.contextsPerMethod = contextsPerMethod;
        this.rows = result.methods().stream().limit(top).toList();
        result.methods().forEach(c -> byId.put(c.method(), c));
        collectContexts();
    }

    /** Every method id the rows and their contexts name, for one signature query. */
    void addMethodsNamed(Set<Long> ids) {
        rows.forEach(r -> ids.add(r.method()));
        contexts.values().forEach(list -> list.forEach(c -> {
            Cct tree = c[1] >= 0 ? byMethodA : byMethodB;
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

    CompareResponse.Significance significance(SideReplicates a, SideReplicates b) {
        MethodComparison.Noise n = result.noise();
        return new CompareResponse.Significance(result.level(), n.model(), n.replicatesA(), a.unit(),
                n.replicatesB(), b.unit(), n.dispersionMethodTime(), n.dispersionSelfTime(), n.degreesOfFreedom(),
                result.methods().size(), result.tested(), result.significant(), MethodComparison.CONFIDENCE);
    }

    /** The row's label: the more significant measure's, or UNCHANGED when neither is significant. */
    static Change label(MethodChange c) {
        return c.significant() ? c.strongest().label() : Change.UNCHANGED;
    }

    static CompareResponse.Share measure(Measure m) {
        ShareChange c = m.change();
        return new CompareResponse.Share(c.countA(), c.samplesA(), c.countB(), c.samplesB(), c.shareA(), c.shareB(),
                c.delta(), c.low(), c.high(), c.pValue(), m.qValue(), m.significant(), m.label().name());
    }

    /** Per row method: {id, node in A or -1, node in B or -1}, largest |delta| first, at most the limit. */
    private void collectContexts() {
        Map<Long, Map<Long, long[]>> byMethod = new LinkedHashMap<>();
        rows.forEach(r -> byMethod.put(r.method(), new LinkedHashMap<>()));
        addNodes(byMethodA, byMethod, 1);
        addNodes(byMethodB, byMethod, 2);
        long samplesA = byMethodA.total(Cct.ROOT);
        long samplesB = byMethodB.total(Cct.ROOT);
        byMethod.forEach((method, found) -> {
            List<long[]> list = new ArrayList<>(found.values());
            list.sort(Comparator.comparingDouble((long[] c) -> -Math.abs(share(byMethodB, c[2], samplesB)
                    - share(byMethodA, c[1], samplesA))).thenComparingLong(c -> c[0]));
            contexts.put(method, list.size() > contextsPerMethod ? list.subList(0, contextsPerMethod) : list);
        });
    }

    private static void addNodes(Cct tree, Map<Long, Map<Long, long[]>> byMethod, int column) {
        for (int n = 1; n < tree.size(); n++) {
            Map<Long, long[]> found = byMethod.get(tree.method(n));
            if (found != null && tree.recursiveParent(n) == Cct.NONE) {
                found.computeIfAbsent(tree.id(n), id -> new long[] {id, -1, -1})[column] = n;
            }
        }
    }

    private static double share(Cct tree, long node, long samples) {
        return node < 0 || samples == 0 ? 0.0 : (double) tree.total((int) node) / samples;
    }

    private CompareResponse.Context context(long[] c, LongFunction<String> signature) {
        Cct tree = c[1] >= 0 ? byMethodA : byMethodB;
        List<String> path = new ArrayList<>();
        for (int n = (int) (c[1] >= 0 ? c[1] : c[2]); n != Cct.ROOT; n = tree.parent(n)) {
            path.add(signature.apply(tree.method(n)));
        }
        Collections.reverse(path);
        long sa = c[1] < 0 ? 0 : byMethodA.total((int) c[1]);
        long sb = c[2] < 0 ? 0 : byMethodB.total((int) c[2]);
        double shareA = share(byMethodA, c[1], byMethodA.total(Cct.ROOT));
        double shareB = share(byMethodB, c[2], byMethodB.total(Cct.ROOT));
        return new CompareResponse.Context(path, sa, sb, shareA, shareB, shareB - shareA);
    }

}
