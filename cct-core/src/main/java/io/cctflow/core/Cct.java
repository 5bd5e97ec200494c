package io.cctflow.core;

import io.cctflow.core.internal.LongIntMap;
import java.util.Arrays;

/**
 * A call-site calling context tree with sample counts (seed 000 Sect. 2.1, seed 002 Sect. 3.2).
 *
 * <p>Nodes are dense indexes {@code 0..size()-1}; index 0 is the virtual root. A node is created
 * after its parent, so a parent's index is always smaller than its children's and a plain loop
 * over indexes visits the tree top-down. Each node stores its id ({@link NodeId}), parent, method
 * id, call-site line, depth and <em>recursive parent</em>: the nearest ancestor with the same
 * method, or -1 (seed 002 Listing 3.3), computed once from the path when the node is created.
 *
 * <p>Children are found by hashing (parent id, method, line) into the id index, never by a search
 * over siblings. Merging a stack allocates nothing unless it creates nodes.
 *
 * <p>Not thread-safe.
 */
public final class Cct {
    /** Index of the virtual root. */
    public static final int ROOT = 0;
    /** Value of {@link #recursiveParent} for a node with no ancestor of the same method. */
    public static final int NONE = -1;

    private final LongIntMap index;
    private long[] ids;
    private int[] parents;
    private long[] methods;
    private int[] lines;
    private int[] depths;
    private int[] recursiveParents;
    private long[] self;
    private long[] total;
    private int size;
    private long collisions;

    public Cct() {
        this(1024);
    }

    public Cct(int expectedNodes) {
        int cap = Math.max(16, expectedNodes);
        index = new LongIntMap(cap);
        ids = new long[cap];
        parents = new int[cap];
        methods = new long[cap];
        lines = new int[cap];
        depths = new int[cap];
        recursiveParents = new int[cap];
        self = new long[cap];
        total = new long[cap];
        ids[ROOT] = NodeId.ROOT;
        parents[ROOT] = NONE;
        recursiveParents[ROOT] = NONE;
        index.put(NodeId.ROOT, ROOT);
        size = 1;
    }

    /**
     * Merges one stack sample (seed 003: the sample is charged once to its leaf context): adds
     * {@code count} to the leaf's self count and to the total count of every node on the path,
     * creating the nodes that do not exist yet.
     *
     * @param methodIds method ids, outermost frame first; only the first {@code depth} are read
     * @param callSiteLines call-site line of each frame (the line its parent frame was executing)
     * @return the index of the leaf node (the root for an empty stack)
     */
    public int addStack(long[] methodIds, int[] callSiteLines, int depth, long count) {
        int node = ROOT;
        total[ROOT] += count;
        for (int i = 0; i < depth; i++) {
            node = child(node, methodIds[i], callSiteLines[i]);
            total[node] += count;
        }
        self[node] += count;
        return node;
    }

    /** The child of {@code parent} for (method, line), created with zero counts if absent. */
    public int child(int parent, long methodId, int callSiteLine) {
        long id = NodeId.child(ids[parent], methodId, callSiteLine);
        int existing = index.get(id);
        if (existing >= 0) {
            if (parents[existing] != parent || methods[existing] != methodId || lines[existing] != callSiteLine) {
                // same id, different path: keep the first node, count the collision
                collisions++;
            }
            return existing;
        }
        return create(id, parent, methodId, callSiteLine);
    }

    /** Adds counts to a node, e.g. when rebuilding a tree from stored per-node counts. */
    public void addCounts(int node, long selfCount, long totalCount) {
        self[node] += selfCount;
        total[node] += totalCount;
    }

    private int create(long id, int parent, long methodId, int line) {
        if (size == ids.length) {
            growArrays();
        }
        int n = size++;
        ids[n] = id;
        parents[n] = parent;
        methods[n] = methodId;
        lines[n] = line;
        depths[n] = depths[parent] + 1;
        recursiveParents[n] = findRecursiveParent(parent, methodId);
        index.put(id, n);
        return n;
    }

    /** Seed 002 Listing 3.3, but from the path in hand: O(depth) per new node, no tree scan. */
    private int findRecursiveParent(int ancestor, long methodId) {
        for (int a = ancestor; a != ROOT; a = parents[a]) {
            if (methods[a] == methodId) {
                return a;
            }
        }
        return NONE;
    }

    private void growArrays() {
        int cap = ids.length * 2;
        ids = Arrays.copyOf(ids, cap);
        parents = Arrays.copyOf(parents, cap);
        methods = Arrays.copyOf(methods, cap);
        lines = Arrays.copyOf(lines, cap);
        depths = Arrays.copyOf(depths, cap);
        recursiveParents = Arrays.copyOf(recursiveParents, cap);
        self = Arrays.copyOf(self, cap);
        total = Arrays.copyOf(total, cap);
    }

    /** Number of nodes including the virtual root. */
    public int size() {
        return size;
    }

    /** Index of the node with this id, or -1. */
    public int indexOf(long nodeId) {
        return index.get(nodeId);
    }

    public long id(int node) {
        return ids[node];
    }

    /** Parent index; {@link #NONE} for the root. */
    public int parent(int node) {
        return parents[node];
    }

    /** Method id; 0 for the root. */
    public long method(int node) {
        return methods[node];
    }

    public int callSiteLine(int node) {
        return lines[node];
    }

    /** Depth: 0 for the root, 1 for a thread root frame. */
    public int depth(int node) {
        return depths[node];
    }

    /** Nearest ancestor with the same method, or {@link #NONE}. */
    public int recursiveParent(int node) {
        return recursiveParents[node];
    }

    /** Samples whose leaf is this node. */
    public long self(int node) {
        return self[node];
    }

    /** Samples whose stack passes through this node (each counted once). */
    public long total(int node) {
        return total[node];
    }

    /** Lookups that found an id already taken by a different (parent, method, line). */
    public long collisions() {
        return collisions;
    }
}
