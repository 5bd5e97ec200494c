package io.cctflow.core;

import java.util.Objects;

/**
 * One JVM of one deployment: (service, version, instance), seed 002 Sect. 4.3.2. Its {@link #key()}
 * is what streams are keyed by and what the graph store files counts under.
 */
public record ExecutionId(String service, String version, String instance) {
    private static final char SEP = '\u001f'; // unit separator: cannot occur in sane names

    public ExecutionId {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(instance, "instance");
    }

    /** A single string that identifies the execution, stable across runs. */
    public String key() {
        return service + SEP + version + SEP + instance;
    }

    /**
     * The key of this execution's deployment (service, version): code manifests are keyed by it on
     * Kafka and filed under it in the graph store.
     */
    public String deploymentKey() {
        return deploymentKey(service, version);
    }

    /** The key of the deployment (service, version); see {@link #deploymentKey()}. */
    public static String deploymentKey(String service, String version) {
        return service + SEP + version;
    }

    /** Inverse of {@link #key()}. */
    public static ExecutionId fromKey(String key) {
        int a = key.indexOf(SEP);
        int b = key.indexOf(SEP, a + 1);
        if (a < 0 || b < 0) {
            throw new IllegalArgumentException("not an execution key: " + key);
        }
        return new ExecutionId(key.substring(0, a), key.substring(a + 1, b), key.substring(b + 1));
    }

    @Override
    public String toString() {
        return service + "@" + version + "/" + instance;
    }
}
