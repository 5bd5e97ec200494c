package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.core.metrics.MethodTotals;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/v1/metrics/top}: the top {@code top} methods of a selection by self samples
 * ({@code by=self}, default) or by method samples ({@code by=method}: inclusive and
 * recursion-aware, seed 002 Eq. 3.5), or both lists in one answer ({@code by=both}: the top by
 * self, then those of the top by method not among them, up to twice {@code top} rows; what the
 * UI's hot-methods table shows, from one load of the tree where two requests each loaded it),
 * relative to the whole tree, selected tasks or a dynamic root ({@link ScopeParams}); each as "x
 * of y samples" with y the scope's samples. With {@code migrate} ({@link MigratedAnswers}) a young
 * deployment's figures blend in its previous deployment's migrated profile, each count with its
 * migrated part beside it, and {@code migration} says how much of the whole answer is migrated.
 */
public final class TopMethodsEndpoint implements JsonHandler.Endpoint {
    public static final Set<String> PARAMS = MethodMetricsEndpoint.union(Selection.PARAMS, ScopeParams.PARAMS,
            MigratedAnswers.PARAMS, Set.of("by", "top"));
    static final int DEFAULT_TOP = 100;

    private final CatalogueReader catalogue;
    private final TopologyReader topology;
    private final TreeSource trees;
    private final MigratedAnswers migrations;

    public TopMethodsEndpoint(CatalogueReader catalogue, TopologyReader topology, TreeSource trees,
            MigratedAnswers migrations) {
        this.catalogue = catalogue;
        this.topology = topology;
        this.trees = trees;
        this.migrations = migrations;
    }

    /**
     * @param methodTime methodSamples / scope samples (Eq. 3.6)
     * @param selfShare selfSamples / scope samples
     * @param migratedMethodSamples the part of methodSamples migrated from the previous deployment
     *     (likewise {@code migratedSelfSamples})
     */
    public record Method(String method, long methodSamples, double methodTime, long selfSamples, double selfShare,
            long migratedMethodSamples, long migratedSelfSamples) {
    }

    public record Response(String service, String version, List<String> instances, String from, String to,
            String scope, List<String> tasks, String root, String by, long totalSamples, int methodCount,
            MigratedAnswers.Summary migration, List<Method> methods) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        String by = params.oneOf("by", "self", "method", "both").orElse("self");
        int top = params.integer("top", 1, trees.limits().maxResults())
                .orElse(Math.min(DEFAULT_TOP, trees.limits().maxResults()));
        Selection selection = Selection.of(params, catalogue, trees.limits());
        MigratedAnswers.Answer answer = migrations.answer(params, selection, ThreadParams.ALL, trees.load(selection));
        Cct tree = answer.tree();
        ScopeParams scope = ScopeParams.of(params, catalogue, topology, selection.service(), tree);
        MethodTotals totals = MethodTotals.of(scope.scope());
        MethodTotals migrated = answer.migrated() ? MethodTotals.of(answer.migratedScope(scope.scope())) : null;
        Map<Long, Integer> migratedIndex = new HashMap<>();
        for (int k = 0; migrated != null && k < migrated.size(); k++) {
            migratedIndex.put(migrated.methodId(k), k);
        }
        int[] order = by.equals("both") ? union(totals.top(top, true), totals.top(top, false))
                : totals.top(top, by.equals("self"));
        List<Long> ids = new ArrayList<>(order.length);
        for (int k : order) {
            ids.add(totals.methodId(k));
        }
        Map<Long, String> names = MethodResolver.signatures(catalogue, ids);
        long all = totals.scopeSamples();
        List<Method> methods = new ArrayList<>(order.length);
        for (int k : order) {
            Integer m = migratedIndex.get(totals.methodId(k));
            methods.add(new Method(names.get(totals.methodId(k)), totals.methodSamples(k),
                    share(totals.methodSamples(k), all), totals.selfSamples(k), share(totals.selfSamples(k), all),
                    m == null ? 0 : migrated.methodSamples(m), m == null ? 0 : migrated.selfSamples(m)));
        }
        return new Response(selection.service(), selection.version(),
                selection.instances().stream().map(i -> i.instanceId()).toList(), selection.from().toString(),
                selection.to().toString(), scope.kind(), scope.tasks(), scope.root(), by, all,
                totals.size(), answer.summary(), methods);
    }

    /** {@code first}, then those of {@code second} not in it, each in its order. */
    static int[] union(int[] first, int[] second) {
        Set<Integer> rows = new LinkedHashSet<>();
        for (int k : first) {
            rows.add(k);
        }
        for (int k : second) {
            rows.add(k);
        }
        return rows.stream().mapToInt(Integer::intValue).toArray();
    }

    private static double share(long part, long whole) {
        return whole == 0 ? 0 : (double) part / whole;
    }
}
