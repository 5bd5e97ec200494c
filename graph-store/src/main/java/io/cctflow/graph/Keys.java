package io.cctflow.graph;

import io.cctflow.model.Resolution;
import io.cctflow.core.ExecutionId;
import java.util.Map;

/** Composite keys of stored entities, built the same way by the writer and the reader. */
public final class Keys {
    private static final char SEP = '\u001f';
    private static final String DEPLOYMENT_INSTANCE = "\u001e";

    private Keys() {
    }

    public static String deployment(String service, String version) {
        return ExecutionId.deploymentKey(service, version);
    }

    public static String codeClass(String deploymentKey, String className) {
        return deploymentKey + SEP + className;
    }

    /**
     * The execution key under which the roll-ups of a whole deployment are filed: the deployment's
     * executions' key with the instance id {@code U+001E} (record separator), which no agent reports,
     * so its window keys cannot meet those of a real execution.
     */
    public static String deploymentRollup(String service, String version) {
        return new ExecutionId(service, version, DEPLOYMENT_INSTANCE).key();
    }

    /** {@link #deploymentRollup(String, String)} of the deployment of an execution key. */
    public static String deploymentRollup(String executionKey) {
        ExecutionId e = ExecutionId.fromKey(executionKey);
        return deploymentRollup(e.service(), e.version());
    }

    /** A fine window (as the samples job writes it). */
    public static String window(String executionKey, long windowStartMillis) {
        return executionKey + SEP + windowStartMillis;
    }

    /** A window of any resolution: fine windows keep their original key. */
    public static String window(String executionKey, Resolution resolution, long windowStartMillis) {
        return resolution == Resolution.FINE ? window(executionKey, windowStartMillis)
                : executionKey + SEP + resolution.property() + SEP + windowStartMillis;
    }

    /**
     * The stored identity of a window (its unique {@code (instance, resolution, start)}) as query
     * parameters for {@link #MATCH_WINDOWS}. {@link #window} names the same window in memory (caches,
     * maps); since 2026-11-29 the name is no longer stored.
     */
    public static Map<String, Object> windowIdentity(String executionKey, Resolution resolution, long windowStartMillis) {
        return Map.of("instance", executionKey, "resolution", resolution.property(), "start", windowStartMillis);
    }

    /** Matches {@code w} for each {@link #windowIdentity} in {@code $windows} (an index seek each). */
    public static final String MATCH_WINDOWS = """
            UNWIND $windows AS s
            MATCH (w:Window {instance: s.instance, resolution: s.resolution, start: s.start})
            """;

    public static String nodeTasks(String service, long nodeId) {
        return service + SEP + nodeId;
    }
}
