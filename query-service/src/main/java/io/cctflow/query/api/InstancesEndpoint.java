package io.cctflow.query.api;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.model.InstanceRecord;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.util.List;
import java.util.Set;

/**
 * {@code GET /api/v1/instances?service=S}: the service's instances (JVMs), optionally of one
 * {@code version} (or {@code at=service@version}) and carrying every {@code label=k=v}; paged
 * ({@link Page}: {@code limit}, {@code offset}; {@code total} counts the matching instances).
 */
public final class InstancesEndpoint implements JsonHandler.Endpoint {
    public static final Set<String> PARAMS = MethodMetricsEndpoint.union(Set.of("service", "version", "label", "at"),
            Page.PARAMS);

    private final CatalogueReader catalogue;
    private final Limits limits;

    public InstancesEndpoint(CatalogueReader catalogue, Limits limits) {
        this.catalogue = catalogue;
        this.limits = limits;
    }

    public record Instance(String service, String version, String instanceId, String host, long pid, String startTime,
            String firstSample, String lastSample, java.util.Map<String, String> labels) {
    }

    public record Response(String service, String version, List<Instance> instances, int total, int offset,
            int limit, Integer next) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        Page page = Page.of(params, limits);
        Selection selection = Selection.of(params, catalogue, limits);
        List<InstanceRecord> selected = selection.instances();
        return new Response(selection.service(), selection.version(), page.of(selected).stream()
                .map(i -> new Instance(i.service(), i.version(), i.instanceId(), i.host(), i.pid(),
                        ServicesEndpoint.time(i.startTimeMillis()), ServicesEndpoint.time(i.firstSampleMillis()),
                        ServicesEndpoint.time(i.lastSampleMillis()), i.labels()))
                .toList(), selected.size(), page.offset(), page.limit(), page.next(selected.size()));
    }
}
