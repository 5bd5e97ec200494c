package io.cctflow.model;

import io.cctflow.core.ExecutionId;
import java.util.Map;
import java.util.TreeMap;

/**
 * One JVM of a deployment and the span of its samples. Writing the same record twice, or records
 * of overlapping spans, is idempotent: the stored span is the union (min first, max last).
 *
 * <p>{@code labels} is a sorted copy in a plain {@link TreeMap}, not an immutable map, because the
 * record travels between Flink operators and Flink's generic serializer must be able to rebuild it.
 * Do not modify it.
 */
public record InstanceRecord(
        String service,
        String version,
        String instanceId,
        String host,
        long pid,
        long startTimeMillis,
        Map<String, String> labels,
        long firstSampleMillis,
        long lastSampleMillis) {

    public InstanceRecord {
        labels = new TreeMap<>(labels);
    }

    public ExecutionId executionId() {
        return new ExecutionId(service, version, instanceId);
    }
}
