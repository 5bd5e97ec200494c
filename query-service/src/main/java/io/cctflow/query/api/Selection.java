package io.cctflow.query.api;

import io.cctflow.graph.GraphReader;
import io.cctflow.graph.model.InstanceRecord;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.QueryParams;
import java.time.Instant;
import java.util.List;

/**
 * Which executions and which time range a request is about: {@code service} (required),
 * {@code version}, {@code instance} (repeatable), {@code from} and {@code to} (ISO-8601; default:
 * all time). Unknown service, version or instance is a 404 that names it.
 */
public record Selection(String service, String version, List<InstanceRecord> instances, Instant from, Instant to) {
    /** Bounds for "all time" that every stored window lies within. */
    static final Instant BEGINNING = Instant.EPOCH;
    static final Instant END = Instant.parse("9999-12-31T23:59:59Z");

    public static Selection of(QueryParams params, GraphReader reader) {
        String service = params.required("service");
        String version = params.optional("version").orElse(null);
        List<String> instanceIds = params.all("instance");
        Instant from = params.instant("from").orElse(BEGINNING);
        Instant to = params.instant("to").orElse(END);
        if (!from.isBefore(to)) {
            throw ApiException.badRequest("parameter 'from' (" + from + ") must be before 'to' (" + to + ")");
        }
        List<InstanceRecord> all = reader.instances(service);
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
        if (!instanceIds.isEmpty()) {
            for (String id : instanceIds) {
                if (selected.stream().noneMatch(i -> i.instanceId().equals(id))) {
                    throw ApiException.notFound("service '" + service + "'" + (version == null ? "" : " version '"
                            + version + "'") + " has no instance '" + id + "'");
                }
            }
            selected = selected.stream().filter(i -> instanceIds.contains(i.instanceId())).toList();
        }
        return new Selection(service, version, selected, from, to);
    }

    public List<String> executionKeys() {
        return instances.stream().map(i -> i.executionId().key()).toList();
    }
}
