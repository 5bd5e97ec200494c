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
 * given label.
 */
public final class DeploymentsEndpoint implements JsonHandler.Endpoint {
    public static final Set<String> PARAMS = Set.of("service", "label");

    private final CatalogueReader catalogue;

    public DeploymentsEndpoint(CatalogueReader catalogue) {
        this.catalogue = catalogue;
    }

    public record Deployment(String service, String version, String at, String firstSample, String lastSample,
            int instanceCount, List<ServicesEndpoint.Instance> instances) {
    }

    public record Response(String service, List<Deployment> deployments) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        String service = params.required("service");
        Map<String, String> labels = params.pairs("label");
        List<DeploymentRecord> deployments = catalogue.deployments(service);
        if (deployments.isEmpty()) {
            throw ApiException.notFound("unknown service '" + service + "': no samples of it are stored");
        }
        List<InstanceRecord> instances = catalogue.instances(service).stream()
                .filter(i -> Selection.hasLabels(i, labels)).toList();
        return new Response(service, deployments.stream()
                .map(d -> new Deployment(d.service(), d.version(), d.service() + "@" + d.version(),
                        ServicesEndpoint.time(d.firstSampleMillis()), ServicesEndpoint.time(d.lastSampleMillis()),
                        d.instanceCount(), instances.stream().filter(i -> i.version().equals(d.version()))
                                .map(ServicesEndpoint::instance).toList()))
                .filter(d -> labels.isEmpty() || !d.instances().isEmpty())
                .toList());
    }
}
