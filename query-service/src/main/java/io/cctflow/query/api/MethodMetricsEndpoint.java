package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import io.cctflow.graph.GraphReader;
import io.cctflow.graph.TreeLoader;
import io.cctflow.graph.model.MethodRecord;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code GET /api/v1/metrics/method}: method and self time of a method over a selection of
 * executions and a time range, recursion-aware, with the raw sample counts behind each share.
 */
public final class MethodMetricsEndpoint implements JsonHandler.Endpoint {
    static final Set<String> PARAMS = Set.of("service", "method", "version", "instance", "from", "to");

    private final GraphReader reader;
    private final TreeLoader trees;

    public MethodMetricsEndpoint(GraphReader reader) {
        this.reader = reader;
        this.trees = new TreeLoader(reader);
    }

    /** The response body. */
    public record Response(
            String service,
            String version,
            List<String> instances,
            String from,
            String to,
            String method,
            List<String> overloads,
            long methodSamples,
            long totalSamples,
            double methodTime,
            long selfSamples,
            double selfTime) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        MethodSelector selector = MethodSelector.parse(params.required("method"));
        Selection selection = Selection.of(params, reader);
        List<MethodRecord> methods = reader.methods(selector.className(), selector.methodName(), selector.descriptor());
        if (methods.isEmpty()) {
            throw ApiException.notFound("unknown method '" + selector + "': it has never been sampled");
        }
        Set<Long> ids = methods.stream().map(MethodRecord::id).collect(Collectors.toSet());
        Cct tree = trees.load(selection.executionKeys(), selection.from().toEpochMilli(), selection.to().toEpochMilli());
        MethodTime m = MethodTime.of(Scope.whole(tree), ids::contains);
        return new Response(selection.service(), selection.version(),
                selection.instances().stream().map(i -> i.instanceId()).toList(),
                selection.from().toString(), selection.to().toString(), selector.toString(),
                methods.stream().map(MethodRecord::signature).toList(),
                m.methodSamples(), m.scopeSamples(), m.methodTime(), m.selfSamples(), m.selfTime());
    }
}
