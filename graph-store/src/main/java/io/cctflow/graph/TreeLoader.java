package io.cctflow.graph;

import io.cctflow.core.Cct;
import io.cctflow.core.NodeId;
import io.cctflow.core.TreeCounts;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Rebuilds the CCT of a set of executions over a time range from stored windows: sums the counts
 * per node and per (node, thread), reads the topology of the nodes that have counts, and replays it into a {@link Cct}
 * parents first. Each rebuilt node's id is recomputed from its path and checked against the
 * stored one, so a corrupt or colliding topology cannot go unnoticed.
 */
public final class TreeLoader {
    private final GraphReader reader;
    private final RangeReader ranges;

    public TreeLoader(GraphReader reader) {
        this.reader = reader;
        this.ranges = new RangeReader(reader);
    }

    /**
     * The merged tree of the executions over [fromMillis, toMillis) (windows overlapping it count);
     * empty when nothing matched. Reads roll-ups where they cover the range ({@link RangeReader}).
     */
    public Cct load(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return rebuild(ranges.plan(executionKeys, fromMillis, toMillis).sum());
    }

    /** The summed counts of windows ({@link TreeCounts#sum}: one pass). */
    public static TreeCounts sum(Collection<WindowCounts> windows) {
        List<TreeCounts> counts = new ArrayList<>(windows.size());
        for (WindowCounts w : windows) {
            counts.add(w.counts());
        }
        return TreeCounts.sum(counts);
    }

    /** The tree of summed counts: topology read for the nodes that have counts, per-thread counts included. */
    public Cct rebuild(TreeCounts sum) {
        Map<Long, long[]> counts = new HashMap<>(); // id -> {self, total}
        for (int i = 0; i < sum.nodeIds().length; i++) {
            counts.put(sum.nodeIds()[i], new long[] {sum.self()[i], sum.total()[i]});
        }
        List<NodeRecord> nodes = new ArrayList<>(reader.nodes(counts.keySet()));
        nodes.sort(Comparator.comparingInt(NodeRecord::depth));
        Cct tree = new Cct(nodes.size() + 1);
        long[] root = counts.get(NodeId.ROOT);
        if (root != null) {
            tree.addCounts(Cct.ROOT, root[0], root[1]);
        }
        for (NodeRecord n : nodes) {
            if (n.id() == NodeId.ROOT) {
                continue;
            }
            int parent = tree.indexOf(n.parentId());
            if (parent < 0) {
                throw new IllegalStateException("stored node " + n.id() + " has counts but its parent "
                        + n.parentId() + " has none: the stored windows are inconsistent");
            }
            int node = tree.child(parent, n.methodId(), n.line());
            if (tree.id(node) != n.id()) {
                throw new IllegalStateException("stored node " + n.id() + " does not match its path (recomputed "
                        + tree.id(node) + ")");
            }
            long[] c = counts.get(n.id());
            tree.addCounts(node, c[0], c[1]);
        }
        for (int e = 0; e < sum.threadNodeIds().length; e++) {
            int node = tree.indexOf(sum.threadNodeIds()[e]);
            String name = sum.threadName(sum.threadIds()[e]);
            if (node < 0 || name == null) {
                throw new IllegalStateException("stored thread counts of node " + sum.threadNodeIds()[e]
                        + " name " + (node < 0 ? "a node without counts" : "no thread in the dictionary"));
            }
            tree.addThreadSelf(node, tree.thread(name), sum.threadSelf()[e]);
        }
        return tree;
    }
}
