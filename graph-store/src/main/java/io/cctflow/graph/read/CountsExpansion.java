package io.cctflow.graph.read;

import io.cctflow.core.NodeId;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.collect.LongIntMap;
import io.cctflow.graph.SelfCounts;
import io.cctflow.model.NodeRecord;
import java.util.Arrays;
import java.util.function.LongFunction;

/**
 * The whole {@link TreeCounts} of a projected window or sum ({@link SelfCounts}), from its self
 * counts and the topology: every ancestor of a node with self counts gets a row, each node's total
 * is the self counts of its subtree, and the per-method table is summed from the nodes (method
 * samples: the totals of the nodes with no ancestor of the same method, Eq. 3.5; self: the self
 * counts). Per-thread rows, the thread dictionary and raw names are kept as they are. Equal to the
 * tables the samples job computed before projecting (tested on random trees with recursion and
 * several threads, {@code CountsExpansionTest}). Stateless.
 */
public final class CountsExpansion {
    private CountsExpansion() {
    }

    /**
     * @param projected a projection (whole counts are projected first)
     * @param topology the record of a node id, or null when it is not stored
     * @throws IllegalStateException when a node with counts, or an ancestor of one, has no stored
     *     topology, or the topology's depths do not fit together
     */
    public static TreeCounts expand(TreeCounts projected, LongFunction<NodeRecord> topology) {
        TreeCounts p = SelfCounts.project(projected);
        long[] ids = p.nodeIds();
        if (ids.length == 0) {
            return p;
        }
        Nodes nodes = new Nodes(ids.length * 8);
        long rootSelf = 0;
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == NodeId.ROOT) {
                rootSelf = p.self()[i];
            } else {
                nodes.addPath(ids[i], p.self()[i], topology);
            }
        }
        int n = nodes.size;
        long[] total = new long[n];
        int[] parentRow = new int[n];
        int maxDepth = 0;
        for (int i = 0; i < n; i++) {
            maxDepth = Math.max(maxDepth, nodes.depth[i]);
            parentRow[i] = nodes.parent[i] == NodeId.ROOT ? -1 : nodes.index.get(nodes.parent[i]);
            int parentDepth = parentRow[i] < 0 ? 0 : nodes.depth[parentRow[i]];
            if (nodes.depth[i] != parentDepth + 1) {
                throw new IllegalStateException("stored node " + nodes.id[i] + " is at depth " + nodes.depth[i]
                        + " below a parent at depth " + parentDepth);
            }
        }
        // deepest first: a node's total is complete when its parent takes it
        int[][] byDepth = new int[maxDepth + 1][];
        int[] count = new int[maxDepth + 1];
        for (int i = 0; i < n; i++) {
            count[nodes.depth[i]]++;
        }
        for (int d = 0; d <= maxDepth; d++) {
            byDepth[d] = new int[count[d]];
            count[d] = 0;
        }
        for (int i = 0; i < n; i++) {
            byDepth[nodes.depth[i]][count[nodes.depth[i]]++] = i;
        }
        long rootTotal = rootSelf;
        for (int d = maxDepth; d >= 1; d--) {
            for (int i : byDepth[d]) {
                total[i] += nodes.self[i];
                if (parentRow[i] < 0) {
                    rootTotal += total[i];
                } else {
                    total[parentRow[i]] += total[i];
                }
            }
        }
        long[] sortedIds = new long[n + 1];
        System.arraycopy(nodes.id, 0, sortedIds, 0, n);
        sortedIds[n] = NodeId.ROOT;
        Arrays.sort(sortedIds);
        long[] self = new long[n + 1];
        long[] totals = new long[n + 1];
        for (int k = 0; k <= n; k++) {
            if (sortedIds[k] == NodeId.ROOT) {
                self[k] = rootSelf;
                totals[k] = rootTotal;
            } else {
                int i = nodes.index.get(sortedIds[k]);
                self[k] = nodes.self[i];
                totals[k] = total[i];
            }
        }
        long[][] methods = methods(nodes, total);
        return TreeCounts.of(sortedIds, self, totals, p.threadNodeIds(), p.threadIds(), p.threadSelf(),
                p.threadDictIds(), p.threadDictNames(), methods[0], methods[1], methods[2])
                .withRawThreadNames(p.rawThreadNames());
    }

    /** Per method, sorted by id: method samples (totals of its outermost nodes) and self. */
    private static long[][] methods(Nodes nodes, long[] total) {
        LongIntMap slots = new LongIntMap(Math.max(16, Math.min(nodes.size, 4096)));
        long[] ids = new long[nodes.size];
        long[] samples = new long[nodes.size];
        long[] self = new long[nodes.size];
        int distinct = 0;
        for (int i = 0; i < nodes.size; i++) {
            int slot = slots.get(nodes.method[i]);
            if (slot < 0) {
                slot = distinct++;
                ids[slot] = nodes.method[i];
                slots.put(nodes.method[i], slot);
            }
            if (!nodes.recursive[i]) {
                samples[slot] += total[i];
            }
            self[slot] += nodes.self[i];
        }
        long[][] out = new long[3][];
        out[0] = Arrays.copyOf(ids, distinct);
        Arrays.sort(out[0]);
        out[1] = new long[distinct];
        out[2] = new long[distinct];
        for (int k = 0; k < distinct; k++) {
            int slot = slots.get(out[0][k]);
            out[1][k] = samples[slot];
            out[2][k] = self[slot];
        }
        return out;
    }

    /** The nodes of the expansion (the root apart), in the order met, growing as paths are added. */
    private static final class Nodes {
        final LongIntMap index;
        long[] id;
        long[] parent;
        long[] self;
        long[] method;
        int[] depth;
        boolean[] recursive;
        int size;

        Nodes(int expected) {
            index = new LongIntMap(expected);
            id = new long[expected];
            parent = new long[expected];
            self = new long[expected];
            method = new long[expected];
            depth = new int[expected];
            recursive = new boolean[expected];
        }

        /** The node with its self count, and its ancestors not added yet (self 0 until their own row comes). */
        void addPath(long nodeId, long selfCount, LongFunction<NodeRecord> topology) {
            int known = index.get(nodeId);
            if (known >= 0) {
                self[known] += selfCount;
                return;
            }
            long at = nodeId;
            long s = selfCount;
            while (at != NodeId.ROOT && index.get(at) < 0) {
                NodeRecord r = topology.apply(at);
                if (r == null) {
                    throw new IllegalStateException("stored counts name node " + Long.toUnsignedString(at)
                            + (at == nodeId ? "" : " (an ancestor of " + Long.toUnsignedString(nodeId) + ")")
                            + ", whose topology is not stored");
                }
                add(r, s);
                s = 0;
                at = r.parentId();
            }
        }

        private void add(NodeRecord r, long selfCount) {
            if (size == id.length) {
                int cap = size * 2 + 16;
                id = Arrays.copyOf(id, cap);
                parent = Arrays.copyOf(parent, cap);
                self = Arrays.copyOf(self, cap);
                method = Arrays.copyOf(method, cap);
                depth = Arrays.copyOf(depth, cap);
                recursive = Arrays.copyOf(recursive, cap);
            }
            id[size] = r.id();
            parent[size] = r.parentId();
            self[size] = selfCount;
            method[size] = r.methodId();
            depth[size] = r.depth();
            recursive[size] = r.recursiveParentId() != NodeRecord.NO_RECURSIVE_PARENT;
            index.put(r.id(), size);
            size++;
        }
    }
}
