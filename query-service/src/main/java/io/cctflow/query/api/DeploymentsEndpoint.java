package io.cctflow.query.api;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.model.DeploymentRecord;
import io.cctflow.model.InstanceRecord;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/v1/deployments?service=S}: the service's deployments (versions), oldest first,
 * each with its time window (first and last sample of any instance: what {@code at=} reads) and
 * its instances; {@code label=k=v} (repeatable) keeps deployments with an instance carrying every
 * given label. Paged over the deployments ({@link Page}: {@code limit}, {@code offset}; {@code
 * total} counts deployments); each lists at most {@code limits.max-results} instances ({@code
 * instanceCount} has them all; {@code /api/v1/instances?at=S@V} pages through them).
 */
public final class DeploymentsEndpoint implements JsonHandler.Endpoint {
    public static final Set<String> PARAMS = MethodMetricsEndpoint.union(Set.of("service", "label"), Page.PARAMS);

    private final CatalogueReader catalogue;
    private final Limits limits;

    public DeploymentsEndpoint(CatalogueReader catalogue, Limits limits) {
        this.catalogue = catalogue;
        this.limits = limits;
    }

    public record Deployment(String service, String version, String at, String firstSample, String lastSample,
            int instanceCount, List<ServicesEndpoint.Instance> instances) {
    }

    public record Response(String service, List<Deployment> deployments, int total, int offset, int limit,
            Integer next) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        String service = params.required("service");
        Map<String, String> labels = params.pairs("label");
        Page page = Page.of(params, limits);
        List<DeploymentRecord> deployments = catalogue.deployments(service);
        if (deployments.isEmpty()) {
            throw ApiException.notFound("unknown service '" + service + "': no samples of it are stored");
        }
        List<InstanceRecord> instances = catalogue.instances(service).stream()
                .filter(i -> Selection.hasLabels(i, labels)).toList();
        List<DeploymentRecord> matching = deployments.stream()
                .filter(d -> labels.isEmpty() || instances.stream().anyMatch(i -> i.version().equals(d.version())))
                .toList();
        return new Response(service, page.of(matching).stream()
                .map(d -> new Deployment(d.service(), d.version(), d.service() + "@" + d.version(),
                        ServicesEndpoint.time(d.firstSampleMillis()), ServicesEndpoint.time(d.lastSampleMillis()),
                        d.instanceCount(), instances.stream().filter(i -> i.version().equals(d.version()))
                                .limit(limits.maxResults()).map(ServicesEndpoint::instance).toList()))
                .toList(), matching.size(), page.offset(), page.limit(), page.next(matching.size()));
    }
}
