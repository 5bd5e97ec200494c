package io.cctflow.query.api;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.model.InstanceRecord;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/v1/services}: every service with its versions and their instances; with {@code
 * label=k=v} (repeatable) only instances carrying every given label, and the services and versions
 * that have one.
 */
public final class ServicesEndpoint implements JsonHandler.Endpoint {
    public static final Set<String> PARAMS = Set.of("label");

    private final CatalogueReader catalogue;

    public ServicesEndpoint(CatalogueReader catalogue) {
        this.catalogue = catalogue;
    }

    public record Instance(String instanceId, String host, long pid, String startTime, String firstSample,
            String lastSample, Map<String, String> labels) {
    }

    public record Version(String version, String firstSample, String lastSample, List<Instance> instances) {
    }

    public record Service(String name, List<Version> versions) {
    }

    public record Response(List<Service> services) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        Map<String, String> labels = params.pairs("label");
        Map<String, Map<String, List<InstanceRecord>>> tree = new LinkedHashMap<>();
        for (InstanceRecord i : catalogue.instances(null)) { // ordered by service, version, instance
            if (!Selection.hasLabels(i, labels)) {
                continue;
            }
            tree.computeIfAbsent(i.service(), s -> new LinkedHashMap<>())
                    .computeIfAbsent(i.version(), v -> new ArrayList<>()).add(i);
        }
        List<Service> services = new ArrayList<>();
        tree.forEach((service, versions) -> {
            List<Version> vs = new ArrayList<>();
            versions.forEach((version, instances) -> vs.add(new Version(version,
                    time(instances.stream().mapToLong(InstanceRecord::firstSampleMillis).min().orElse(0)),
                    time(instances.stream().mapToLong(InstanceRecord::lastSampleMillis).max().orElse(0)),
                    instances.stream().map(ServicesEndpoint::instance).toList())));
            services.add(new Service(service, vs));
        });
        return new Response(services);
    }

    static Instance instance(InstanceRecord i) {
        return new Instance(i.instanceId(), i.host(), i.pid(), time(i.startTimeMillis()), time(i.firstSampleMillis()),
                time(i.lastSampleMillis()), i.labels());
    }

    static String time(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }
}
