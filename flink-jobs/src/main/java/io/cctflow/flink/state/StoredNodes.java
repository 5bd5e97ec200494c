package io.cctflow.flink.state;

import io.cctflow.model.NodeRecord;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The keyed-state form of an execution's CCT nodes ({@link io.cctflow.flink.Outputs#CCT_NODE_CHUNKS}):
 * chunks of nodes, each the nodes one batch created, a node in {@value #BYTES} bytes (id, parent id,
 * method id, call-site line, depth). That is all a tree needs to be rebuilt ({@link io.cctflow.flink.cct.InstanceTrees});
 * the rest (recursive parent) is derived from the path again. A heap-backend checkpoint writes every
 * execution's whole state, so one byte array per chunk makes it a few bulk writes per execution
 * instead of one map entry per node (and keeps millions of tiny objects off the heap), and RocksDB
 * gets one value per chunk. Stateless.
 */
public final class StoredNodes {
    public static final int BYTES = 32;
    /** Chunks an execution may have before they are compacted into one. */
    public static final int MAX_CHUNKS = 32;

    private StoredNodes() {
    }

    /** One chunk of nodes. */
    public static byte[] encode(List<NodeRecord> nodes) {
        ByteBuffer b = ByteBuffer.allocate(nodes.size() * BYTES);
        for (NodeRecord n : nodes) {
            b.putLong(n.id()).putLong(n.parentId()).putLong(n.methodId()).putInt(n.line()).putInt(n.depth());
        }
        return b.array();
    }

    /** Chunks concatenated into one. */
    public static byte[] concat(Iterable<byte[]> chunks) {
        int length = 0;
        for (byte[] c : chunks) {
            length += c.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] c : chunks) {
            System.arraycopy(c, 0, all, at, c.length);
            at += c.length;
        }
        return all;
    }

    /** Nodes stored in a chunk. @throws IllegalStateException if {@code chunk} is not a chunk of stored nodes */
    public static int count(byte[] chunk) {
        if (chunk == null || chunk.length % BYTES != 0) {
            throw new IllegalStateException("a chunk of nodes in state has " + (chunk == null ? "no" : chunk.length)
                    + " bytes, not a multiple of " + BYTES);
        }
        return chunk.length / BYTES;
    }

    /** A stored node, decoded. */
    public record Node(long id, long parentId, long methodId, int line, int depth) {
        /** The {@code i}-th node of a chunk ({@link #count} checked it). */
        public static Node decode(byte[] chunk, int i) {
            ByteBuffer b = ByteBuffer.wrap(chunk, i * BYTES, BYTES);
            return new Node(b.getLong(), b.getLong(), b.getLong(), b.getInt(), b.getInt());
        }
    }
}
