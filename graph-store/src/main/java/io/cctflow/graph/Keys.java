package io.cctflow.graph;

import io.cctflow.model.Resolution;
import io.cctflow.core.ExecutionId;

/** Composite keys of stored entities, built the same way by the writer and the reader. */
final class Keys {
    private static final char SEP = '\u001f';
    private static final String DEPLOYMENT_INSTANCE = "\u001e";

    private Keys() {
    }

    static String deployment(String service, String version) {
        return ExecutionId.deploymentKey(service, version);
    }

    static String codeClass(String deploymentKey, String className) {
        return deploymentKey + SEP + className;
    }

    /**
     * The execution key under which the roll-ups of a whole deployment are filed: the deployment's
     * executions' key with the instance id {@code U+001E} (record separator), which no agent reports,
     * so its window keys cannot meet those of a real execution.
     */
    static String deploymentRollup(String service, String version) {
        return new ExecutionId(service, version, DEPLOYMENT_INSTANCE).key();
    }

    /** {@link #deploymentRollup(String, String)} of the deployment of an execution key. */
    static String deploymentRollup(String executionKey) {
        ExecutionId e = ExecutionId.fromKey(executionKey);
        return deploymentRollup(e.service(), e.version());
    }

    /** A fine window (as the samples job writes it). */
    static String window(String executionKey, long windowStartMillis) {
        return executionKey + SEP + windowStartMillis;
    }

    /** A window of any resolution: fine windows keep their original key. */
    static String window(String executionKey, Resolution resolution, long windowStartMillis) {
        return resolution == Resolution.FINE ? window(executionKey, windowStartMillis)
                : executionKey + SEP + resolution.property() + SEP + windowStartMillis;
    }

    static String nodeTasks(String service, long nodeId) {
        return service + SEP + nodeId;
    }
}
