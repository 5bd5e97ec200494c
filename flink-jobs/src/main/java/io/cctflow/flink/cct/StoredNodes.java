package io.cctflow.flink.cct;

import java.nio.ByteBuffer;

/**
 * The keyed-state form of an execution's CCT nodes ({@link io.cctflow.flink.Outputs#CCT_NODES}):
 * under its id, a node's parent id, method id, call-site line and depth in {@value #BYTES} bytes.
 * That is all a tree needs to be rebuilt ({@link InstanceTrees}); the rest (recursive parent) is
 * derived from the path again. A byte array is one bulk write per node when the heap state backend
 * snapshots every node at each checkpoint, and one small value in RocksDB (a POJO per node cost
 * a reflective field access per field in each snapshot). Stateless.
 */
final class StoredNodes {
    static final int BYTES = 24;

    private StoredNodes() {
    }

    static byte[] encode(long parentId, long methodId, int line, int depth) {
        return ByteBuffer.allocate(BYTES).putLong(parentId).putLong(methodId).putInt(line).putInt(depth).array();
    }

    /** A stored node, decoded. */
    record Node(long id, long parentId, long methodId, int line, int depth) {
        /** @throws IllegalStateException if {@code value} is not a stored node */
        static Node decode(long id, byte[] value) {
            if (value == null || value.length != BYTES) {
                throw new IllegalStateException("node " + id + " in state is not a " + BYTES + "-byte stored node");
            }
            ByteBuffer b = ByteBuffer.wrap(value);
            return new Node(id, b.getLong(), b.getLong(), b.getInt(), b.getInt());
        }
    }
}
