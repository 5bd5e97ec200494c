package io.cctflow.flink.cct;

import io.cctflow.flink.state.StoredNodes;
import io.cctflow.core.Cct;
import io.cctflow.core.task.TaskLabels;
import io.cctflow.core.truncated.MethodNodeIndex;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The topology of each execution's CCT as a {@link Cct} with its {@link MethodNodeIndex}, for
 * maximal common merging, which needs every node of a method and child lookups. Derived data:
 * keyed state ({@code CCT_TREE_CHUNKS}, and {@code LEGACY_CCT_NODE_CHUNKS} of a job restored from
 * an older savepoint) is the truth; a tree is rebuilt from it on a miss (after a restore, or after
 * eviction) and kept in step by the caller, which adds each new node to both.
 * At most {@code capacity} trees are kept, least recently used evicted. The trees keep no counts
 * ({@link Cct#topologyOnly}). Not thread-safe: one per operator instance.
 */
public final class InstanceTrees {
    /**
     * A tree, its method index, and its task labels if computed ({@code null} until then; made by
     * some labeller, which the caller compares with the one it needs).
     */
    public static final class Entry {
        private final Cct tree;
        private final MethodNodeIndex index;
        private TaskLabels labels;
        /** Chunks of this tree's nodes in state: counted at the rebuild, kept by whoever adds or compacts them. */
        int storedChunks;
        /**
         * Whether some of its nodes are in state in the first form ({@code StoredNodes.Legacy}):
         * the caller rewrites them and clears this.
         */
        boolean legacy;

        Entry(Cct tree, MethodNodeIndex index, int storedChunks, boolean legacy) {
            this.tree = tree;
            this.index = index;
            this.storedChunks = storedChunks;
            this.legacy = legacy;
        }

        public Cct tree() {
            return tree;
        }

        public MethodNodeIndex index() {
            return index;
        }

        /** The labeller of this tree, kept by the task labelling; null until it sets one. */
        public TaskLabels labels() {
            return labels;
        }

        public void setLabels(TaskLabels labels) {
            this.labels = labels;
        }

        /** Whether some of its nodes, and so its method names, are still in state in the first form. */
        public boolean legacy() {
            return legacy;
        }
    }

    /**
     * A key's chunks of nodes in state, read only when its tree is not cached: with RocksDB a read
     * of a list state fetches and copies the whole list (a busy execution's ~12,000 nodes).
     */
    @FunctionalInterface
    public interface StoredChunks {
        Iterable<byte[]> read() throws Exception;
    }

    private final Map<String, Entry> trees;

    public InstanceTrees(int capacity) {
        this.trees = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * The tree of {@code key}, rebuilt if not cached from {@code legacy} (the key's chunks in the
     * first form) and {@code stored} (its chunks), read then only.
     */
    public Entry get(String key, StoredChunks legacy, StoredChunks stored) throws Exception {
        Entry entry = trees.get(key);
        if (entry == null) {
            entry = rebuild(legacy.read(), stored.read());
            trees.put(key, entry);
        }
        return entry;
    }

    /** Forgets every tree, e.g. when state may have changed behind the cache's back. */
    public void clear() {
        trees.clear();
    }

    /**
     * The first form's nodes come first, by depth (their parents before them), as the trees of
     * that time were rebuilt: the chunks written since continue a tree in that order.
     */
    private static Entry rebuild(Iterable<byte[]> legacy, Iterable<byte[]> stored) {
        List<StoredNodes.Node> nodes = new ArrayList<>();
        if (legacy != null) {
            for (byte[] chunk : legacy) {
                for (int i = 0, n = StoredNodes.Legacy.count(chunk); i < n; i++) {
                    nodes.add(StoredNodes.Node.decode(chunk, i));
                }
            }
        }
        List<byte[]> chunks = new ArrayList<>();
        if (stored != null) {
            stored.forEach(chunks::add);
        }
        nodes.sort(Comparator.comparingInt(StoredNodes.Node::depth));
        Cct tree = Cct.topologyOnly(nodes.size() + 16 * chunks.size() + 16);
        for (StoredNodes.Node n : nodes) {
            int parent = tree.indexOf(n.parentId());
            if (parent < 0) {
                throw new IllegalStateException("node " + n.id() + " in state has no parent " + n.parentId());
            }
            int node = tree.child(parent, n.methodId(), n.line());
            if (tree.id(node) != n.id()) {
                throw new IllegalStateException("node " + n.id() + " in state does not match its path");
            }
        }
        for (byte[] chunk : chunks) {
            StoredNodes.decodeInto(chunk, tree);
        }
        return new Entry(tree, new MethodNodeIndex(tree), chunks.size(), !nodes.isEmpty());
    }
}
