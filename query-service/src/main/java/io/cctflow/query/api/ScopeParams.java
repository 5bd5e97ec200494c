package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.core.metrics.Scope;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.QueryParams;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What metrics are relative to: the whole tree (default), the subtrees of the nodes labelled with
 * any of the {@code task} names (repeatable; labels as the samples job stored them, seed 002
 * Eq. 3.23-3.25), or the subtrees of a method's recursion-free nodes ({@code root}: a dynamic task
 * root, seed 002 Sect. 5.3.2). {@code task} and {@code root} exclude each other.
 *
 * @param kind {@code whole}, {@code tasks} or {@code root}
 */
public record ScopeParams(String kind, List<String> tasks, String root, Scope scope) {
    public static final Set<String> PARAMS = Set.of("task", "root");

    public static ScopeParams of(QueryParams params, CatalogueReader catalogue, TopologyReader topology, String service,
            Cct tree) {
        List<String> tasks = params.all("task");
        String root = params.optional("root").orElse(null);
        if (!tasks.isEmpty() && root != null) {
            throw ApiException.badRequest("parameters 'task' and 'root' exclude each other: metrics are relative to"
                    + " selected tasks or to a dynamic root method, not both");
        }
        if (root != null) {
            MethodRecord m = MethodResolver.single(catalogue, "root", root);
            return new ScopeParams("root", List.of(), m.signature(), Scope.dynamicTaskRoot(tree, m.id()));
        }
        if (!tasks.isEmpty()) {
            Set<String> seen = new HashSet<>();
            boolean[] selected = TaskNodes.carrying(tree, TaskNodes.labels(topology, service, tree), new HashSet<>(tasks),
                    seen);
            if (seen.isEmpty()) {
                throw ApiException.notFound("no node of service '" + service + "' sampled in the selected range carries"
                        + " task " + tasks + " (parameter 'task'); see /api/v1/tasks for the definitions");
            }
            return new ScopeParams("tasks", List.copyOf(tasks), null, Scope.below(tree, selected));
        }
        return new ScopeParams("whole", List.of(), null, Scope.whole(tree));
    }
}
