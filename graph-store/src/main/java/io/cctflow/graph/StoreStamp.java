package io.cctflow.graph;

/**
 * Store-wide versions of what answers are computed from: one {@code (:StoreStamp {name,
 * version})} node per kind, whose {@code version} every transaction that changes that kind sets
 * to a new random UUID, in that same transaction. {@link #WINDOWS}: every write, rewrite or
 * deletion of a {@code :Window}; {@link #TASK_LABELS}: every write or deletion of a {@code
 * :NodeTasks}. A reader that saw one version, read, and sees the same version again knows that
 * nothing of that kind changed since it read the version (a value is never reused, so two
 * writers racing cannot bring an old one back, as an incremented counter could lose an update).
 * What lets a repeated read skip listing its windows ({@link io.cctflow.graph.read.RangePlanner})
 * and keep answers over task labels.
 *
 * <p>Set by the last statement of a writing transaction, so the node's lock, which serialises
 * the writers' commits, is held only from that statement to the commit. The window stamp's node
 * also holds the longest fine window stored ({@link FineWindowBound}), raised under that lock.
 */
public final class StoreStamp {
    /** The stamp of the stored windows. */
    public static final String WINDOWS = "windows";
    /** The stamp of the stored task labels ({@code :NodeTasks}). */
    public static final String TASK_LABELS = "task-labels";

    /** The version now of stamp {@code $name}; the row's {@code version} is null when none was set yet. */
    public static final String READ = """
            OPTIONAL MATCH (s:StoreStamp {name: $name})
            RETURN s.version AS version
            """;

    private StoreStamp() {
    }

    /**
     * A statement of its own in a writing transaction: sets a new version of {@code name} (one of
     * the constants above, never user input). Needs the {@code store_stamp_name} constraint
     * ({@link GraphSchema}) so that concurrent writers merge one node.
     */
    public static String bump(String name) {
        return "MERGE (stamp:StoreStamp {name: '" + name + "'})\nSET stamp.version = randomUUID()\n";
    }

    /** {@link #bump} to append to a writing statement, after its last clause (one row or many, or none). */
    public static String bumpAfter(String name) {
        return "WITH count(*) AS stampedRows\n" + bump(name);
    }
}
