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
 * that have one. Paged over the instances ({@link Page}: {@code limit}, {@code offset}; {@code
 * total} counts instances): a page holds the services and versions of its instances, each version
 * with its whole time window and {@code instanceCount}.
 */
public final class ServicesEndpoint implements JsonHandler.Endpoint {
    public static final Set<String> PARAMS = MethodMetricsEndpoint.union(Set.of("label"), Page.PARAMS);

    private final CatalogueReader catalogue;
    private final Limits limits;

    public ServicesEndpoint(CatalogueReader catalogue, Limits limits) {
        this.catalogue = catalogue;
        this.limits = limits;
    }

    public record Instance(String instanceId, String host, long pid, String startTime, String firstSample,
            String lastSample, Map<String, String> labels) {
    }

    public record Version(String version, String firstSample, String lastSample, int instanceCount,
            List<Instance> instances) {
    }

    public record Service(String name, List<Version> versions) {
    }

    public record Response(List<Service> services, int total, int offset, int limit, Integer next) {
    }

    @Override
    public Response handle(QueryParams params) {
        params.allowOnly(PARAMS);
        Map<String, String> labels = params.pairs("label");
        Page page = Page.of(params, limits);
        Map<String, List<InstanceRecord>> versions = new LinkedHashMap<>(); // key: service + '\0' + version
        List<InstanceRecord> matching = new ArrayList<>();
        for (InstanceRecord i : catalogue.instances(null)) { // ordered by service, version, instance
            if (Selection.hasLabels(i, labels)) {
                matching.add(i);
                versions.computeIfAbsent(i.service() + '\0' + i.version(), k -> new ArrayList<>()).add(i);
            }
        }
        Map<String, Map<String, List<InstanceRecord>>> tree = new LinkedHashMap<>();
        for (InstanceRecord i : page.of(matching)) {
            tree.computeIfAbsent(i.service(), s -> new LinkedHashMap<>())
                    .computeIfAbsent(i.version(), v -> new ArrayList<>()).add(i);
        }
        List<Service> services = new ArrayList<>();
        tree.forEach((service, inPage) -> {
            List<Version> vs = new ArrayList<>();
            inPage.forEach((version, instances) -> {
                List<InstanceRecord> all = versions.get(service + '\0' + version);
                vs.add(new Version(version,
                        time(all.stream().mapToLong(InstanceRecord::firstSampleMillis).min().orElse(0)),
                        time(all.stream().mapToLong(InstanceRecord::lastSampleMillis).max().orElse(0)),
                        all.size(), instances.stream().map(ServicesEndpoint::instance).toList()));
            });
            services.add(new Service(service, vs));
        });
        return new Response(services, matching.size(), page.offset(), page.limit(), page.next(matching.size()));
    }

    static Instance instance(InstanceRecord i) {
        return new Instance(i.instanceId(), i.host(), i.pid(), time(i.startTimeMillis()), time(i.firstSampleMillis()),
                time(i.lastSampleMillis()), i.labels());
    }

    static String time(long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }
}
