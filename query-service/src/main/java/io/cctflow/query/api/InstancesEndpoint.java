package io.cctflow.query.api;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.model.InstanceRecord;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /api/v1/instances?service=S}: the service's instances (JVMs), optionally of one
 * {@code version} (or {@code at=service@version}) and carrying every {@code label=k=v}; at most
 * {@code limits.max-results}.
 */
public final class InstancesEndpoint implements JsonHandler.Endpoint {
    public static final Set<String> PARAMS = Set.of("service", "version", "label", "at");

    private final CatalogueReader catalogue;
    private final Limits limits;

    public InstancesEndpoint(CatalogueReader catalogue, Limits limits) {
        this.catalogue = catalogue;
        this.limits = limits;
    }

    public record Instance(String service, String version, String instanceId, String host, long pid, String startTime,
            String firstSample, String lastSample, java.util.Map<String, String> labels) {
    }

    public record Response(String service, String version, List<Instance> instances) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        Selection selection = Selection.of(params, catalogue, limits);
        List<InstanceRecord> selected = selection.instances();
        if (selected.size() > limits.maxResults()) {
            throw ApiException.badRequest(selected.size() + " instances match, more than the limit limits.max-results = "
                    + limits.maxResults() + "; narrow with 'version' or 'label'");
        }
        return new Response(selection.service(), selection.version(), selected.stream()
                .map(i -> new Instance(i.service(), i.version(), i.instanceId(), i.host(), i.pid(),
                        ServicesEndpoint.time(i.startTimeMillis()), ServicesEndpoint.time(i.firstSampleMillis()),
                        ServicesEndpoint.time(i.lastSampleMillis()), i.labels()))
                .toList());
    }
}
