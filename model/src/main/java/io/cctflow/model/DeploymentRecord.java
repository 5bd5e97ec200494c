package io.cctflow.model;

/**
 * A deployment (service, version) and its time window: the first and last sample of any of its
 * instances, as stored when the instances were written (retention does not shrink it).
 */
public record DeploymentRecord(String service, String version, long firstSampleMillis, long lastSampleMillis,
        int instanceCount) {
}
