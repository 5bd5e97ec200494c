package io.cctflow.query.api;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.model.DeploymentRecord;
import io.cctflow.model.InstanceRecord;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.QueryParams;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which executions and which time range a request is about: {@code service} (required unless
 * {@code at} names it), {@code version}, {@code instance} (repeatable), {@code label=k=v}
 * (repeatable: instances carrying every given label), and either {@code from}/{@code to}
 * (ISO-8601; default: the span of the selected instances' samples) or {@code at=service@version}
 * (time travel: that deployment, over its sample window). Unknown service, version or instance is
 * a 404 that names it; a range longer than {@code limits.max-range} a 400.
 */
public record Selection(String service, String version, List<InstanceRecord> instances, Instant from, Instant to) {
    /** The parameters every selecting endpoint takes. */
    public static final Set<String> PARAMS = Set.of("service", "version", "instance", "label", "from", "to", "at");

    public static Selection of(QueryParams params, CatalogueReader catalogue, Limits limits) {
        String service = params.optional("service").orElse(null);
        String version = params.optional("version").orElse(null);
        DeploymentRecord at = null;
        if (params.optional("at").isPresent()) {
            String value = params.optional("at").get();
            int sep = value.lastIndexOf('@');
            if (sep <= 0 || sep == value.length() - 1) {
                throw ApiException.badRequest("parameter 'at' must be service@version, e.g. checkout@v42; got '"
                        + value + "'");
            }
            String atService = value.substring(0, sep);
            String atVersion = value.substring(sep + 1);
            if (service != null && !service.equals(atService)) {
                throw ApiException.badRequest("parameter 'at' names service '" + atService + "' but 'service' is '"
                        + service + "'; give one of them");
            }
            if (version != null && !version.equals(atVersion)) {
                throw ApiException.badRequest("parameter 'at' names version '" + atVersion + "' but 'version' is '"
                        + version + "'; give one of them");
            }
            if (params.optional("from").isPresent() || params.optional("to").isPresent()) {
                throw ApiException.badRequest("parameter 'at' selects the deployment's own time window; give either"
                        + " 'at' or 'from'/'to', not both");
            }
            service = atService;
            version = atVersion;
            String v = atVersion;
            at = catalogue.deployments(atService).stream().filter(d -> d.version().equals(v)).findFirst()
                    .orElseThrow(() -> ApiException.notFound("unknown deployment '" + value + "' (parameter 'at'); see"
                            + " /api/v1/deployments?service=" + atService));
        }
        if (service == null) {
            throw ApiException.badRequest("missing required parameter 'service' (or 'at=service@version')");
        }
        List<InstanceRecord> selected = instances(params, catalogue, service, version);
        Instant from;
        Instant to;
        if (at != null) {
            from = Instant.ofEpochMilli(at.firstSampleMillis());
            to = Instant.ofEpochMilli(Math.max(at.lastSampleMillis(), at.firstSampleMillis() + 1));
        } else {
            from = params.instant("from").orElse(Instant.ofEpochMilli(selected.stream()
                    .mapToLong(InstanceRecord::firstSampleMillis).min().orElse(0)));
            to = params.instant("to").orElse(Instant.ofEpochMilli(selected.stream()
                    .mapToLong(InstanceRecord::lastSampleMillis).max().orElse(0) + 1));
        }
        if (!from.isBefore(to)) {
            throw ApiException.badRequest("parameter 'from' (" + from + ") must be before 'to' (" + to + ")");
        }
        Duration range = Duration.between(from, to);
        if (range.compareTo(limits.maxRange()) > 0) {
            throw ApiException.badRequest("the time range " + from + " to " + to + " is " + range.toDays()
                    + " days, longer than the limit limits.max-range = " + limits.maxRange().toDays()
                    + " days; narrow it with 'from' and 'to'");
        }
        return new Selection(service, version, selected, from, to);
    }

    /** The instances of a service selected by {@code version}, {@code instance} and {@code label}. */
    static List<InstanceRecord> instances(QueryParams params, CatalogueReader catalogue, String service, String version) {
        List<String> instanceIds = params.all("instance");
        Map<String, String> labels = params.pairs("label");
        List<InstanceRecord> all = catalogue.instances(service);
        if (all.isEmpty()) {
            throw ApiException.notFound("unknown service '" + service + "': no samples of it are stored");
        }
        List<InstanceRecord> selected = all.stream()
                .filter(i -> version == null || i.version().equals(version))
                .toList();
        if (selected.isEmpty()) {
            throw ApiException.notFound("service '" + service + "' has no version '" + version + "'; versions: "
                    + all.stream().map(InstanceRecord::version).distinct().toList());
        }
        for (String id : instanceIds) {
            if (selected.stream().noneMatch(i -> i.instanceId().equals(id))) {
                throw ApiException.notFound("service '" + service + "'" + (version == null ? "" : " version '"
                        + version + "'") + " has no instance '" + id + "'");
            }
        }
        return selected.stream()
                .filter(i -> instanceIds.isEmpty() || instanceIds.contains(i.instanceId()))
                .filter(i -> hasLabels(i, labels))
                .toList();
    }

    /** Whether an instance carries every one of the labels. */
    static boolean hasLabels(InstanceRecord instance, Map<String, String> labels) {
        return labels.entrySet().stream().allMatch(l -> l.getValue().equals(instance.labels().get(l.getKey())));
    }

    public List<String> executionKeys() {
        return instances.stream().map(i -> i.executionId().key()).toList();
    }
}
