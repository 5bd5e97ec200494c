package io.cctflow.model;

/**
 * Topology of one CCT node. All fields are functions of the node's path, so every writer writes
 * the same values and the write is idempotent.
 *
 * @param recursiveParentId id of the nearest ancestor with the same method, or
 *     {@link #NO_RECURSIVE_PARENT}
 */
public record NodeRecord(long id, long parentId, long methodId, int line, int depth, long recursiveParentId) {
    public static final long NO_RECURSIVE_PARENT = 0L;
}
