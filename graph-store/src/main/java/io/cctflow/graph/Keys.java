package io.cctflow.graph;

import io.cctflow.model.Resolution;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.Hashing;
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

    /**
     * Instance groups per deployment by default ({@code rollup.instance-groups}): the roll-up pass
     * also sums a deployment's instances per group ({@link #instanceGroup}), and a comparison takes
     * the groups as its replicates where it reads those sums.
     */
    public static final int DEFAULT_INSTANCE_GROUPS = 16;

    /** Most instance groups allowed: each adds its sums to every rolled-up hour of a deployment. */
    public static final int MAX_INSTANCE_GROUPS = 256;

    /**
     * The key under which the roll-ups of the instance group of an execution are filed: the
     * deployment's key with instance id {@code U+001E}, the number of groups, {@code '/'} and the
     * group, e.g. {@code "\u001e16/3"}. The group is a stable hash of the execution key ({@link
     * #groupOf}), the same in every JVM and run; the number of groups is part of the key, so sums
     * made under another setting are never mistaken for these. A group key maps to itself.
     *
     * @param groups 1..{@value #MAX_INSTANCE_GROUPS}
     */
    public static String instanceGroup(String executionKey, int groups) {
        if (isInstanceGroup(executionKey)) {
            return executionKey;
        }
        ExecutionId e = ExecutionId.fromKey(executionKey);
        return new ExecutionId(e.service(), e.version(), DEPLOYMENT_INSTANCE + groups + '/' + groupOf(executionKey,
                groups)).key();
    }

    /** {@code groups} if it is a valid number of instance groups (1..{@value #MAX_INSTANCE_GROUPS}). */
    public static int checkInstanceGroups(int groups) {
        if (groups < 1 || groups > MAX_INSTANCE_GROUPS) {
            throw new IllegalArgumentException("instance groups must be 1.." + MAX_INSTANCE_GROUPS + ", got " + groups);
        }
        return groups;
    }

    /** The group (0..groups-1) of an execution: FNV-1a of its key, mixed, modulo {@code groups}. */
    public static int groupOf(String executionKey, int groups) {
        return (int) Math.floorMod(Hashing.fmix64(Hashing.fnv1a(Hashing.fnv1aStart(), executionKey)),
                (long) checkInstanceGroups(groups));
    }

    /** Whether a key is one of an instance group's roll-ups ({@link #instanceGroup}). */
    public static boolean isInstanceGroup(String key) {
        String instance = ExecutionId.fromKey(key).instance();
        return instance.length() > 1 && instance.charAt(0) == DEPLOYMENT_INSTANCE.charAt(0);
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
            """ + GraphSchema.SEEK_WINDOWS_BY_INSTANCE;

    public static String nodeTasks(String service, long nodeId) {
        return service + SEP + nodeId;
    }
}
