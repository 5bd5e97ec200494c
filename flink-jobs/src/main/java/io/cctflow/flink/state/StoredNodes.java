package io.cctflow.flink.state;

import io.cctflow.core.Cct;
import io.cctflow.core.collect.LongIntMap;
import io.cctflow.core.encoding.ByteReader;
import io.cctflow.core.encoding.ByteWriter;
import io.cctflow.model.NodeRecord;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The keyed-state form of an execution's CCT ({@link io.cctflow.flink.Outputs#CCT_TREE_CHUNKS}):
 * chunks, each some nodes in the order the tree created them, a chunk per batch that created
 * nodes. A node is stored as how far back its parent is in that order, its method as an index
 * into the chunk's table of method ids, and its call-site line, each a varint: 7.7 bytes a node
 * with the method tables for the pipeline benchmark's busy execution (12,042 nodes of 3,078
 * methods in 6 chunks), where the first form ({@link Legacy}: id, parent id, method id, line and
 * depth) took 32; a heap-backend checkpoint, which writes every execution's whole state, wrote
 * 94 MB instead of 581 MB at 1,000 instances (with the method names moved to operator state).
 * Ids, depths and recursive parents are derived again when the tree is rebuilt ({@link
 * #decodeInto}), which needs the chunks in the order they were added and each chunk to continue
 * the tree where the one before it ended (checked: a chunk holds its last node's id): Flink keeps
 * a list state's order, and the caller compacts by encoding the whole tree again. One byte array per chunk keeps a snapshot to a few bulk writes
 * per execution, and RocksDB to one value per chunk. Stateless.
 */
public final class StoredNodes {
    /** Chunks an execution may have before they are compacted into one. */
    public static final int MAX_CHUNKS = 32;

    private StoredNodes() {
    }

    /**
     * Nodes {@code [from, to)} of {@code tree} as one chunk ({@code from >= 1}: the root is implied):
     * the count of nodes, the id of the tree's last node once they are added (8 bytes: a chunk
     * decoded into a tree it does not continue is caught), the count of distinct methods and their
     * ids (8 bytes each), then per node the distance back to its parent, its method's index in that
     * table and its call-site line (zigzag), each a varint.
     */
    public static byte[] encode(Cct tree, int from, int to) {
        if (from < 1 || to < from || to > tree.size()) {
            throw new IllegalArgumentException("nodes [" + from + ", " + to + ") of a tree of " + tree.size());
        }
        LongIntMap methodIndex = new LongIntMap(Math.max(16, (to - from) / 4));
        long[] methods = new long[16];
        int methodCount = 0;
        ByteWriter nodes = new ByteWriter(4 * (to - from) + 16);
        for (int n = from; n < to; n++) {
            long method = tree.method(n);
            int m = methodIndex.get(method);
            if (m < 0) {
                m = methodCount++;
                methodIndex.put(method, m);
                if (m == methods.length) {
                    methods = Arrays.copyOf(methods, 2 * m);
                }
                methods[m] = method;
            }
            nodes.varint32(n - tree.parent(n));
            nodes.varint32(m);
            nodes.varint32((tree.callSiteLine(n) << 1) ^ (tree.callSiteLine(n) >> 31));
        }
        ByteWriter chunk = new ByteWriter(18 + 8 * methodCount + nodes.length());
        chunk.varint32(to - from);
        chunk.longBigEndian(tree.id(to - 1));
        chunk.varint32(methodCount);
        for (int m = 0; m < methodCount; m++) {
            chunk.longBigEndian(methods[m]);
        }
        chunk.write(nodes);
        return chunk.toByteArray();
    }

    /**
     * Adds the chunk's nodes to {@code tree}, in order, as the tree that encoded them created them.
     *
     * @return the nodes added
     * @throws IllegalStateException if the chunk is damaged or does not continue this tree (a parent
     *     out of range, a node the tree already has, or a last node other than the one it names)
     */
    public static int decodeInto(byte[] chunk, Cct tree) {
        ByteReader in = new ByteReader(chunk, (at, length, what) -> new IllegalStateException(
                "a chunk of nodes in state (" + length + " bytes) is damaged at byte " + at + ": " + what));
        int count = in.varint32();
        long lastId = in.longBigEndian();
        int methodCount = in.varint32();
        if (count < 0 || methodCount < 0 || methodCount > chunk.length / Long.BYTES) {
            throw in.damaged(count + " nodes, " + methodCount + " methods");
        }
        long[] methods = new long[methodCount];
        for (int m = 0; m < methodCount; m++) {
            methods[m] = in.longBigEndian();
        }
        for (int i = 0; i < count; i++) {
            int node = tree.size();
            int back = in.varint32();
            int m = in.varint32();
            int zigzag = in.varint32();
            if (back < 1 || back > node || m < 0 || m >= methodCount) {
                throw in.damaged("node " + i + " (parent " + back + " back, method " + m + ")");
            }
            int line = (zigzag >>> 1) ^ -(zigzag & 1);
            if (tree.child(node - back, methods[m], line) != node) {
                throw new IllegalStateException("a chunk of nodes in state does not continue its tree: node " + i
                        + " of the chunk is one the tree already has");
            }
        }
        if (in.remaining() != 0) { // checked last: a count too high is cut off above
            throw in.damaged(in.remaining() + " bytes after the last node");
        }
        if (tree.id(tree.size() - 1) != lastId) {
            throw new IllegalStateException("a chunk of nodes in state does not continue its tree: its last node"
                    + " should have id " + lastId + ", it has " + tree.id(tree.size() - 1));
        }
        return count;
    }

    /**
     * The first form of chunks ({@code cct-node-chunks}, until 2026-11-30): a node in {@value #BYTES}
     * bytes (id, parent id, method id, line, depth), in no particular order. Read from state a job
     * restored from an older savepoint, then rewritten in the current form and cleared.
     */
    public static final class Legacy {
        public static final int BYTES = 32;

        private Legacy() {
        }

        /** One chunk of nodes in the first form (tests write such state). */
        public static byte[] encode(List<NodeRecord> nodes) {
            ByteBuffer b = ByteBuffer.allocate(nodes.size() * BYTES);
            for (NodeRecord n : nodes) {
                b.putLong(n.id()).putLong(n.parentId()).putLong(n.methodId()).putInt(n.line()).putInt(n.depth());
            }
            return b.array();
        }

        /** Nodes stored in a chunk. @throws IllegalStateException if {@code chunk} is not a chunk of stored nodes */
        public static int count(byte[] chunk) {
            if (chunk == null || chunk.length % BYTES != 0) {
                throw new IllegalStateException("a chunk of nodes in state has " + (chunk == null ? "no" : chunk.length)
                        + " bytes, not a multiple of " + BYTES);
            }
            return chunk.length / BYTES;
        }
    }

    /** A node stored in the first form, decoded. */
    public record Node(long id, long parentId, long methodId, int line, int depth) {
        /** The {@code i}-th node of a chunk ({@link Legacy#count} checked it). */
        public static Node decode(byte[] chunk, int i) {
            ByteBuffer b = ByteBuffer.wrap(chunk, i * Legacy.BYTES, Legacy.BYTES);
            return new Node(b.getLong(), b.getLong(), b.getLong(), b.getInt(), b.getInt());
        }
    }
}
