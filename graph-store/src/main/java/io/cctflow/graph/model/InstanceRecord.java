package io.cctflow.graph.model;

import io.cctflow.core.ExecutionId;
import java.util.Map;

/**
 * One JVM of a deployment and the span of its samples. Writing the same record twice, or records
 * of overlapping spans, is idempotent: the stored span is the union (min first, max last).
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
        labels = Map.copyOf(labels);
    }

    public ExecutionId executionId() {
        return new ExecutionId(service, version, instanceId);
    }
}
