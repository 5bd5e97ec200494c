package io.cctflow.graph.read;

import io.cctflow.core.NodeId;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.collect.LongIntMap;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.graph.SelfCounts;
import io.cctflow.model.NodeRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
     * A node whose topology (or an ancestor's) is not stored keeps its row as stored (total = self,
     * no method row), and is counted in the root's total: the samples job writes topology and
     * windows through separate sinks, so a window can be read a moment before its new nodes are
     * (the tree rebuild leaves such a node out, as it did before windows were projected).
     *
     * @param projected a projection (whole counts are projected first)
     * @param topology the record of a node id, or null when it is not stored
     * @throws IllegalStateException when the topology's depths do not fit together
     */
    public static TreeCounts expand(TreeCounts projected, LongFunction<NodeRecord> topology) {
        TreeCounts p = SelfCounts.project(projected);
        long[] ids = p.nodeIds();
        if (ids.length == 0) {
            return p;
        }
        Nodes nodes = new Nodes(ids.length * 8);
        long rootSelf = 0;
        LongIntMap orphans = new LongIntMap(4); // node id -> its row in p
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == NodeId.ROOT) {
                rootSelf = p.self()[i];
            } else if (!nodes.addPath(ids[i], p.self()[i], topology)) {
                orphans.put(ids[i], i);
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
        for (int i = 0; i < ids.length; i++) {
            if (orphans.get(ids[i]) >= 0) {
                rootTotal += p.self()[i];
            }
        }
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
        int rows = n + 1 + orphans.size();
        long[] sortedIds = new long[rows];
        System.arraycopy(nodes.id, 0, sortedIds, 0, n);
        sortedIds[n] = NodeId.ROOT;
        for (int i = 0, k = n + 1; i < ids.length; i++) {
            if (orphans.get(ids[i]) >= 0) {
                sortedIds[k++] = ids[i];
            }
        }
        Arrays.sort(sortedIds);
        long[] self = new long[rows];
        long[] totals = new long[rows];
        for (int k = 0; k < rows; k++) {
            int orphan = orphans.get(sortedIds[k]);
            if (sortedIds[k] == NodeId.ROOT) {
                self[k] = rootSelf;
                totals[k] = rootTotal;
            } else if (orphan >= 0) {
                self[k] = p.self()[orphan];
                totals[k] = self[k];
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

    /**
     * The per-method table of each one's expansion, {@code MethodSamples.of(expand(c, topology))},
     * without building the expansions: every node their paths hold is indexed once (by depth, with
     * its parent's row and its method's slot), and each count is walked over that index in
     * primitive arrays. For many counts over one topology (a deployment's instances) several times
     * cheaper than expanding each (tested equal on random trees, {@code CountsExpansionTest}).
     *
     * @param counts projections, or whole counts (projected first)
     * @param topology the record of a node id, or null when it is not stored
     */
    public static List<MethodSamples> methodSamples(List<TreeCounts> counts, LongFunction<NodeRecord> topology) {
        List<TreeCounts> projected = counts.stream().map(SelfCounts::project).toList();
        Nodes nodes = new Nodes(1024);
        for (TreeCounts p : projected) {
            for (long id : p.nodeIds()) {
                if (id != NodeId.ROOT) {
                    nodes.addPath(id, 0, topology); // a node whose path is not stored stays out: an orphan
                }
            }
        }
        int n = nodes.size;
        int[] parentRow = new int[n];
        int maxDepth = 0;
        for (int i = 0; i < n; i++) {
            parentRow[i] = nodes.parent[i] == NodeId.ROOT ? -1 : nodes.index.get(nodes.parent[i]);
            maxDepth = Math.max(maxDepth, nodes.depth[i]);
        }
        int[] deepestFirst = new int[n];
        int[] start = new int[maxDepth + 2];
        for (int i = 0; i < n; i++) {
            start[maxDepth - nodes.depth[i] + 1]++;
        }
        for (int d = 1; d < start.length; d++) {
            start[d] += start[d - 1];
        }
        for (int i = 0; i < n; i++) {
            deepestFirst[start[maxDepth - nodes.depth[i]]++] = i;
        }
        long[] methodIds = Arrays.stream(Arrays.copyOf(nodes.method, n)).distinct().sorted().toArray();
        int[] slot = new int[n];
        for (int i = 0; i < n; i++) {
            slot[i] = Arrays.binarySearch(methodIds, nodes.method[i]);
        }
        int[] mark = new int[n]; // = k + 1 where the expansion of count k holds the node
        long[] total = new long[n];
        List<MethodSamples> out = new ArrayList<>(projected.size());
        for (int k = 0; k < projected.size(); k++) {
            TreeCounts p = projected.get(k);
            long[] ids = p.nodeIds();
            if (ids.length == 0) {
                out.add(MethodSamples.of(p)); // what expand returns for it
                continue;
            }
            int stamp = k + 1;
            long rootTotal = 0;
            long[] methodSamples = new long[methodIds.length];
            long[] methodSelf = new long[methodIds.length];
            boolean[] present = new boolean[methodIds.length];
            for (int i = 0; i < ids.length; i++) {
                long self = p.self()[i];
                int row = ids[i] == NodeId.ROOT ? -1 : nodes.index.get(ids[i]);
                if (row < 0) {
                    rootTotal += self; // the root's own, or an orphan's (counted in the root's total)
                    continue;
                }
                if (mark[row] != stamp) {
                    total[row] = 0;
                }
                total[row] += self;
                methodSelf[slot[row]] += self;
                for (int a = row; a >= 0 && mark[a] != stamp; a = parentRow[a]) {
                    if (a != row) {
                        total[a] = 0;
                    }
                    mark[a] = stamp;
                }
            }
            for (int i : deepestFirst) {
                if (mark[i] == stamp) {
                    present[slot[i]] = true;
                    if (!nodes.recursive[i]) {
                        methodSamples[slot[i]] += total[i];
                    }
                    if (parentRow[i] < 0) {
                        rootTotal += total[i];
                    } else {
                        total[parentRow[i]] += total[i];
                    }
                }
            }
            out.add(table(methodIds, present, methodSamples, methodSelf, rootTotal));
        }
        return out;
    }

    /** The methods present, ascending, with their columns. */
    private static MethodSamples table(long[] methodIds, boolean[] present, long[] samples, long[] self, long rootTotal) {
        int m = 0;
        for (boolean x : present) {
            m += x ? 1 : 0;
        }
        long[] ids = new long[m];
        long[] s = new long[m];
        long[] f = new long[m];
        for (int j = 0, k = 0; j < methodIds.length; j++) {
            if (present[j]) {
                ids[k] = methodIds[j];
                s[k] = samples[j];
                f[k++] = self[j];
            }
        }
        return new MethodSamples(ids, s, f, rootTotal);
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

        /**
         * The node with its self count, and its ancestors not added yet (self 0 until their own row
         * comes); false, adding nothing, when the topology of the node or of an ancestor is not stored.
         */
        boolean addPath(long nodeId, long selfCount, LongFunction<NodeRecord> topology) {
            int known = index.get(nodeId);
            if (known >= 0) {
                self[known] += selfCount;
                return true;
            }
            List<NodeRecord> path = new ArrayList<>();
            long at = nodeId;
            while (at != NodeId.ROOT && index.get(at) < 0) {
                NodeRecord r = topology.apply(at);
                if (r == null) {
                    return false;
                }
                path.add(r);
                at = r.parentId();
            }
            add(path.get(0), selfCount);
            for (int i = 1; i < path.size(); i++) {
                add(path.get(i), 0);
            }
            return true;
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
