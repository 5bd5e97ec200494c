package io.cctflow.core;

import io.cctflow.core.collect.LongIntMap;
import io.cctflow.core.internal.LongSums;
import io.cctflow.core.internal.NodeThreadKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
 * <p><b>Per-thread counts</b> (seed 002 Eq. 3.16-3.19). Thread names are normalised ({@link
 * ThreadNames}) and interned to small ints ({@link #thread(String)}); id 0 is {@link
 * ThreadNames#UNKNOWN}, which stacks merged without a thread get. The tree keeps, per (node,
 * thread) that was ever a leaf, the thread's self count, so {@code sum over threads of
 * selfOnThread(n, t) == self(n)} (Eq. 3.16). A thread's total of a node (Eq. 3.18-3.19) is derived
 * on demand ({@link #totalsOnThread(int)}): storing it would cost a hash update per frame instead
 * of one per stack.
 *
 * <p>Not thread-safe.
 */
public final class Cct {
    /** Index of the virtual root. */
    public static final int ROOT = 0;
    /** Value of {@link #recursiveParent} for a node with no ancestor of the same method. */
    public static final int NONE = -1;
    /** Thread id of {@link ThreadNames#UNKNOWN}: stacks merged without a thread. */
    public static final int UNKNOWN_THREAD = 0;

    private final LongIntMap index;
    private long[] ids;
    private int[] parents;
    private long[] methods;
    private int[] lines;
    private int[] depths;
    private int[] recursiveParents;
    /** Per node, a 64-bit set of the hashed methods on its path (root to node): see {@link #findRecursiveParent}. */
    private long[] pathMethods;
    /** Null in a tree without counts ({@link #topologyOnly}). */
    private long[] self;
    private long[] total;
    private final boolean counted;
    private int size;
    private long collisions;

    private final Map<String, Integer> threadIds = new HashMap<>();
    private final List<String> threadNames = new ArrayList<>();
    /** (node &lt;&lt; 32 | thread) to the entry's slot in the arrays below. */
    /** Self counts per (node, thread): {@link NodeThreadKey}. */
    private final LongSums threadSelf;

    public Cct() {
        this(1024);
    }

    public Cct(int expectedNodes) {
        this(expectedNodes, true);
    }

    /**
     * A tree that keeps its topology only (ids, parents, methods, lines, depths, recursive parents,
     * threads): counts given to it are dropped and read as 0, so its nodes cost 16 bytes less each,
     * and nothing per (node, thread). For trees whose counts are kept elsewhere ({@link
     * StackCounts}) and never read. Nodes are created exactly as in a counted tree.
     */
    public static Cct topologyOnly(int expectedNodes) {
        return new Cct(expectedNodes, false);
    }

    private Cct(int expectedNodes, boolean counted) {
        this.counted = counted;
        int cap = Math.max(16, expectedNodes);
        index = new LongIntMap(cap);
        ids = new long[cap];
        parents = new int[cap];
        methods = new long[cap];
        lines = new int[cap];
        depths = new int[cap];
        recursiveParents = new int[cap];
        pathMethods = new long[cap];
        self = counted ? new long[cap] : null;
        total = counted ? new long[cap] : null;
        ids[ROOT] = NodeId.ROOT;
        parents[ROOT] = NONE;
        recursiveParents[ROOT] = NONE;
        index.put(NodeId.ROOT, ROOT);
        size = 1;
        int entries = counted ? Math.max(16, cap / 2) : 1;
        threadSelf = new LongSums(entries);
        thread(ThreadNames.UNKNOWN);
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
        return addStack(methodIds, callSiteLines, depth, UNKNOWN_THREAD, count);
    }

    /**
     * {@link #addStack(long[], int[], int, long)} for a sample of a known thread: also adds {@code
     * count} to the leaf's self count on {@code thread}, one hash update per stack.
     *
     * @param thread a thread id from {@link #thread(String)}
     */
    public int addStack(long[] methodIds, int[] callSiteLines, int depth, int thread, long count) {
        checkThread(thread);
        int node = ROOT;
        if (!counted) {
            for (int i = 0; i < depth; i++) {
                node = child(node, methodIds[i], callSiteLines[i]);
            }
            return node;
        }
        total[ROOT] += count;
        for (int i = 0; i < depth; i++) {
            node = child(node, methodIds[i], callSiteLines[i]);
            total[node] += count;
        }
        self[node] += count;
        addThreadSelf(node, thread, count);
        return node;
    }

    /**
     * The leaf node of a stack, created with the nodes it lacks, as {@link #addStack} finds it, but
     * with no counts changed. Node ids are path hashes ({@link NodeId}), so the leaf's id is computed
     * from the frames alone (arithmetic, no memory access) and looked up once: a stack the tree
     * already has costs one hash lookup instead of one per frame. Only a stack whose leaf is new, or
     * whose leaf id belongs to a node of another path (a collision), walks the path frame by frame
     * with {@link #child}; collisions are counted on that walk, so a collision above a leaf that
     * exists was counted when the path was first walked, not at every lookup.
     *
     * @param methodIds method ids, outermost frame first; only the first {@code depth} are read
     * @param callSiteLines call-site line of each frame
     * @return the index of the leaf node (the root for an empty stack)
     */
    public int leaf(long[] methodIds, int[] callSiteLines, int depth) {
        if (depth == 0) {
            return ROOT;
        }
        long parentId = NodeId.ROOT;
        for (int i = 0; i < depth - 1; i++) {
            parentId = NodeId.child(parentId, methodIds[i], callSiteLines[i]);
        }
        int leaf = existingLeaf(parentId, methodIds[depth - 1], callSiteLines[depth - 1]);
        return leaf != NONE ? leaf : walk(methodIds, callSiteLines, depth);
    }

    /**
     * The leaf node of a stack found frame by frame from the root with {@link #child}, the nodes it
     * lacks created: what {@link #leaf} does when its one lookup fails, for a caller whose lookup
     * ({@link #existingLeaf}) failed. Counts collisions on the way.
     */
    public int walk(long[] methodIds, int[] callSiteLines, int depth) {
        int node = ROOT;
        for (int i = 0; i < depth; i++) {
            node = child(node, methodIds[i], callSiteLines[i]);
        }
        return node;
    }

    /**
     * The node for (method, line) below the node whose id is {@code parentId}, when the tree has
     * it, else {@link #NONE}: {@link #leaf}'s one lookup, for a caller that computed the path's ids
     * itself ({@link NodeId#leafParents}). {@code parentId} must be the id of the path above the leaf.
     */
    public int existingLeaf(long parentId, long methodId, int callSiteLine) {
        int leaf = index.get(NodeId.child(parentId, methodId, callSiteLine));
        if (leaf > ROOT && methods[leaf] == methodId && lines[leaf] == callSiteLine && ids[parents[leaf]] == parentId) {
            return leaf;
        }
        return NONE;
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
        if (!counted) {
            return;
        }
        self[node] += selfCount;
        total[node] += totalCount;
    }

    /**
     * Adds to a node's self count on one thread only, e.g. when rebuilding a tree from stored
     * per-thread counts. The caller keeps Eq. 3.16 true by also adding the sum to {@link
     * #addCounts}.
     */
    public void addThreadSelf(int node, int thread, long selfCount) {
        checkThread(thread);
        if (counted) {
            threadSelf.add(NodeThreadKey.of(node, thread), selfCount);
        }
    }

    /**
     * The id of a thread name, interned on first use. The name is normalised first ({@link
     * ThreadNames#normalise}), so {@code pool-1-thread-2} and {@code pool-1-thread-3} share an id;
     * null means {@link ThreadNames#UNKNOWN}.
     */
    public int thread(String name) {
        String normalised = ThreadNames.normalise(name);
        Integer id = threadIds.get(normalised);
        if (id == null) {
            id = threadNames.size();
            threadNames.add(normalised);
            threadIds.put(normalised, id);
        }
        return id;
    }

    /** The normalised name of a thread id. */
    public String threadName(int thread) {
        checkThread(thread);
        return threadNames.get(thread);
    }

    /** Number of thread ids, {@link #UNKNOWN_THREAD} included. */
    public int threads() {
        return threadNames.size();
    }

    /** Number of (node, thread) pairs with a self count (Eq. 3.17's non-zero entries). */
    public int threadEntries() {
        return threadSelf.size();
    }

    /** Node of the {@code e}-th (node, thread) entry. */
    public int threadEntryNode(int e) {
        return NodeThreadKey.node(threadSelf.key(e));
    }

    /** Thread of the {@code e}-th (node, thread) entry. */
    public int threadEntryThread(int e) {
        return NodeThreadKey.thread(threadSelf.key(e));
    }

    /** Self count of the {@code e}-th (node, thread) entry. */
    public long threadEntrySelf(int e) {
        return threadSelf.sum(e);
    }

    /** Samples of {@code thread} whose leaf is this node: {@code n.sample_thread[t]}, Eq. 3.17. */
    public long selfOnThread(int node, int thread) {
        return threadSelf.get(NodeThreadKey.of(node, thread));
    }

    /**
     * Every node's total count on one thread, {@code sample_total(n, t)} (Eq. 3.18-3.19), indexed by
     * node. O(nodes + entries): the self counts summed bottom-up, children before parents.
     */
    public long[] totalsOnThread(int thread) {
        checkThread(thread);
        long[] totals = new long[size];
        for (int e = 0; e < threadSelf.size(); e++) {
            if (threadEntryThread(e) == thread) {
                totals[threadEntryNode(e)] += threadSelf.sum(e);
            }
        }
        for (int n = size - 1; n > ROOT; n--) {
            totals[parents[n]] += totals[n];
        }
        return totals;
    }

    private void checkThread(int thread) {
        if (thread < 0 || thread >= threadNames.size()) {
            throw new IllegalArgumentException("unknown thread id " + thread + "; ids come from thread(String)");
        }
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
        pathMethods[n] = pathMethods[parent] | methodBit(methodId);
        index.put(id, n);
        return n;
    }

    /**
     * Seed 002 Listing 3.3, but from the path in hand: O(depth) per new node, no tree scan. The walk
     * up is skipped when the method's bit is not in the path's set, which is the common case (most
     * paths have no recursion): rebuilding a 200,000-node tree spent a fifth of its time in the walk.
     */
    private int findRecursiveParent(int ancestor, long methodId) {
        if ((pathMethods[ancestor] & methodBit(methodId)) == 0) {
            return NONE;
        }
        for (int a = ancestor; a != ROOT; a = parents[a]) {
            if (methods[a] == methodId) {
                return a;
            }
        }
        return NONE;
    }

    private static long methodBit(long methodId) {
        return 1L << ((methodId * 0x9E37_79B9_7F4A_7C15L) >>> 58);
    }

    private void growArrays() {
        int cap = ids.length * 2;
        ids = Arrays.copyOf(ids, cap);
        parents = Arrays.copyOf(parents, cap);
        methods = Arrays.copyOf(methods, cap);
        lines = Arrays.copyOf(lines, cap);
        depths = Arrays.copyOf(depths, cap);
        recursiveParents = Arrays.copyOf(recursiveParents, cap);
        pathMethods = Arrays.copyOf(pathMethods, cap);
        if (counted) {
            self = Arrays.copyOf(self, cap);
            total = Arrays.copyOf(total, cap);
        }
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
        return counted ? self[node] : 0;
    }

    /** Samples whose stack passes through this node (each counted once). */
    public long total(int node) {
        return counted ? total[node] : 0;
    }

    /** Lookups that found an id already taken by a different (parent, method, line). */
    public long collisions() {
        return collisions;
    }
}
