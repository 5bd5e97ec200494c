package io.cctflow.core;

import io.cctflow.core.internal.KeyOrder;
import io.cctflow.core.collect.LongIntMap;
import io.cctflow.core.internal.SortedColumns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.IntToLongFunction;
import java.util.function.IntUnaryOperator;

/**
 * The sample counts of a tree (or a window of one), detached from its topology and keyed by stable
 * ids, so counts of different batches, windows and instances can be summed and stored:
 * <ul>
 *   <li>per node: self and total counts, rows sorted by node id (the root included);
 *   <li>per (node, thread): self counts (Eq. 3.17), sorted by node id then thread id, with a
 *       dictionary from thread id ({@link ThreadNames#id}) to normalised name, and the raw names
 *       seen behind those names ({@link RawThreadNames}, at most a few per pool);
 *   <li>per method: method samples (the totals of its recursion-free nodes, Eq. 3.5) and self
 *       samples, sorted by method id: what alerting needs without loading the tree.
 * </ul>
 * Method samples are exact for each tree they were computed from and add up across windows and
 * instances, since a sample belongs to one window and one instance.
 *
 * <p>Immutable by contract: {@link #of(long[], long[], long[], long[], long[], long[], long[],
 * String[], long[], long[], long[])} takes ownership of its arrays and the accessors return them
 * without copying, for speed; nobody may modify them. Thread-safe under that contract.
 */
public final class TreeCounts {
    private static final TreeCounts EMPTY = new TreeCounts(new long[3][0], new long[3][0], new long[0],
            new String[0], new long[3][0], RawThreadNames.empty());

    private final long[][] nodes;
    private final long[][] threads;
    private final long[] threadDictIds;
    private final String[] threadDictNames;
    private final long[][] methods;
    private final RawThreadNames rawThreadNames;

    private TreeCounts(long[][] nodes, long[][] threads, long[] threadDictIds, String[] threadDictNames,
            long[][] methods, RawThreadNames rawThreadNames) {
        this.rawThreadNames = rawThreadNames;
        this.nodes = nodes;
        this.threads = threads;
        this.threadDictIds = threadDictIds;
        this.threadDictNames = threadDictNames;
        this.methods = methods;
    }

    /** No counts. */
    public static TreeCounts empty() {
        return EMPTY;
    }

    /**
     * Wraps stored columns (as written by {@link #nodeIds()} and the other accessors), checking
     * their shape: equal lengths per table, rows sorted by key without duplicates.
     *
     * @throws IllegalArgumentException naming the table that is malformed
     */
    public static TreeCounts of(long[] nodeIds, long[] self, long[] total, long[] threadNodeIds, long[] threadIds,
            long[] threadSelf, long[] threadDictIds, String[] threadDictNames, long[] methodIds,
            long[] methodSamples, long[] methodSelf) {
        long[][] nodes = checked("node", 1, nodeIds, self, total);
        long[][] threads = checked("thread", 2, threadNodeIds, threadIds, threadSelf);
        checked("thread dictionary", 1, threadDictIds);
        if (threadDictNames.length != threadDictIds.length) {
            throw new IllegalArgumentException("thread dictionary: " + threadDictIds.length + " ids but "
                    + threadDictNames.length + " names");
        }
        long[][] methods = checked("method", 1, methodIds, methodSamples, methodSelf);
        return new TreeCounts(nodes, threads, threadDictIds, threadDictNames, methods, RawThreadNames.empty());
    }

    /** The counts of a tree: one pass over its nodes and per-thread entries. */
    public static TreeCounts of(Cct tree) {
        return of(tree, tree.size(), n -> n, tree::self, tree::total, tree.threadEntries(), tree::threadEntryNode,
                tree::threadEntryThread, tree::threadEntrySelf);
    }

    /**
     * The counts of some stacks over a tree ({@link StackCounts}): the same as of a fresh tree with
     * only those stacks merged; one pass over the nodes they passed.
     */
    public static TreeCounts of(StackCounts counts) {
        return of(counts.tree(), counts.nodes(), counts::node, counts::self, counts::total, counts.threadEntries(),
                counts::threadEntryNode, counts::threadEntryThread, counts::threadEntrySelf);
    }

    /** Counts of {@code n} nodes of {@code tree} (the {@code k}-th is {@code nodeAt(k)}) and of thread entries. */
    private static TreeCounts of(Cct tree, int n, IntUnaryOperator nodeAt, IntToLongFunction selfOf,
            IntToLongFunction totalOf, int entries, IntUnaryOperator entryNode, IntUnaryOperator entryThread,
            IntToLongFunction entrySelf) {
        // node ids are unique in a tree: one primitive sort of the ids that keeps each id's node
        long[] unsorted = new long[n];
        for (int k = 0; k < n; k++) {
            unsorted[k] = tree.id(nodeAt.applyAsInt(k));
        }
        int[] order = KeyOrder.ascending(unsorted, n);
        long[][] nodes = new long[3][n];
        long[] ids = nodes[0];
        // per method: summed in slots of a hash map, then the (few) distinct methods sorted
        // sized for the methods expected (at most one per node), so the table does not grow and rehash
        int expectedMethods = Math.max(16, Math.min(n, 4096));
        LongIntMap methodSlots = new LongIntMap(expectedMethods);
        long[] methodIds = new long[expectedMethods];
        long[] methodSamples = new long[expectedMethods];
        long[] methodSelf = new long[expectedMethods];
        int distinctMethods = 0;
        for (int k = 0; k < n; k++) {
            ids[k] = unsorted[order[k]];
            int i = nodeAt.applyAsInt(order[k]);
            long self = selfOf.applyAsLong(i);
            long total = totalOf.applyAsLong(i);
            nodes[1][k] = self;
            nodes[2][k] = total;
            if (i == Cct.ROOT) {
                continue;
            }
            long method = tree.method(i);
            int slot = methodSlots.get(method);
            if (slot < 0) {
                if (distinctMethods == methodIds.length) {
                    methodIds = Arrays.copyOf(methodIds, distinctMethods * 2);
                    methodSamples = Arrays.copyOf(methodSamples, distinctMethods * 2);
                    methodSelf = Arrays.copyOf(methodSelf, distinctMethods * 2);
                }
                slot = distinctMethods++;
                methodIds[slot] = method;
                methodSlots.put(method, slot);
            }
            if (tree.recursiveParent(i) == Cct.NONE) {
                methodSamples[slot] += total;
            }
            methodSelf[slot] += self;
        }
        long[][] methods = new long[3][distinctMethods];
        System.arraycopy(methodIds, 0, methods[0], 0, distinctMethods);
        Arrays.sort(methods[0]);
        for (int k = 0; k < distinctMethods; k++) {
            int slot = methodSlots.get(methods[0][k]);
            methods[1][k] = methodSamples[slot];
            methods[2][k] = methodSelf[slot];
        }
        return withThreads(tree, nodes, methods, entries, entryNode, entryThread, entrySelf, false);
    }

    /**
     * The counts of some stacks over a tree as a store of self counts keeps them: the rows of {@link
     * #of(StackCounts)} that have a self count, each with its total set to it, the root's row with its
     * total (all the samples), the per-thread rows with a self count, the same thread dictionary, and
     * no per-method rows. This is graph-store's projection ({@code SelfCounts.project}) of {@link
     * #of(StackCounts)}, made without the rows it drops: only the nodes charged as leaves are sorted,
     * and no total or method sample is summed (readers derive both from the self counts and the
     * topology). The samples job's per-batch counts, which the graph would project anyway.
     */
    public static TreeCounts selfRowsOf(StackCounts counts) {
        Cct tree = counts.tree();
        int passed = counts.nodes();
        int[] kept = new int[passed];
        long[] unsorted = new long[passed];
        int n = 0;
        for (int k = 0; k < passed; k++) {
            int node = counts.node(k);
            if (node == Cct.ROOT || counts.self(node) > 0) {
                kept[n] = node;
                unsorted[n++] = tree.id(node);
            }
        }
        int[] order = KeyOrder.ascending(unsorted, n);
        long[][] nodes = new long[3][n];
        for (int k = 0; k < n; k++) {
            int node = kept[order[k]];
            nodes[0][k] = unsorted[order[k]];
            nodes[1][k] = counts.self(node);
            nodes[2][k] = node == Cct.ROOT ? counts.total(node) : nodes[1][k];
        }
        return withThreads(tree, nodes, new long[3][0], counts.threadEntries(), counts::threadEntryNode,
                counts::threadEntryThread, counts::threadEntrySelf, true);
    }

    /**
     * The counts of {@code nodes} and {@code methods} with the thread table of {@code entries} entries
     * over {@code tree}: all of them, or only those with a self count ({@code selfOnly}); the thread
     * dictionary names the threads of all of them either way.
     */
    private static TreeCounts withThreads(Cct tree, long[][] nodes, long[][] methods, int entries,
            IntUnaryOperator entryNode, IntUnaryOperator entryThread, IntToLongFunction entrySelf, boolean selfOnly) {
        long[] threadIdOf = new long[tree.threads()];
        for (int t = 0; t < threadIdOf.length; t++) {
            threadIdOf[t] = ThreadNames.id(tree.threadName(t));
        }
        long[][] threads = new long[3][entries];
        // the first name of an id in entry order wins, as summing the entries' names would have it
        TreeMap<Long, String> dictionary = new TreeMap<>();
        boolean[] named = new boolean[threadIdOf.length];
        int rows = 0;
        for (int e = 0; e < entries; e++) {
            int thread = entryThread.applyAsInt(e);
            if (!named[thread]) {
                named[thread] = true;
                dictionary.putIfAbsent(threadIdOf[thread], tree.threadName(thread));
            }
            long self = entrySelf.applyAsLong(e);
            if (selfOnly && self <= 0) {
                continue;
            }
            threads[0][rows] = tree.id(entryNode.applyAsInt(e));
            threads[1][rows] = threadIdOf[thread];
            threads[2][rows++] = self;
        }
        if (rows < entries) {
            for (int c = 0; c < 3; c++) {
                threads[c] = Arrays.copyOf(threads[c], rows);
            }
        }
        return new TreeCounts(nodes, SortedColumns.sortAndCombine(threads, 2),
                dictionary.keySet().stream().mapToLong(Long::longValue).toArray(),
                dictionary.values().toArray(String[]::new), methods, RawThreadNames.empty());
    }

    /** The sum of both: counts of equal keys added, everything else kept. */
    public TreeCounts plus(TreeCounts other) {
        if (other.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        TreeMap<Long, String> dictionary = new TreeMap<>();
        for (int i = 0; i < threadDictIds.length; i++) {
            dictionary.put(threadDictIds[i], threadDictNames[i]);
        }
        for (int i = 0; i < other.threadDictIds.length; i++) {
            dictionary.putIfAbsent(other.threadDictIds[i], other.threadDictNames[i]);
        }
        return new TreeCounts(SortedColumns.sum(nodes, other.nodes, 1), SortedColumns.sum(threads, other.threads, 2),
                dictionary.keySet().stream().mapToLong(Long::longValue).toArray(),
                dictionary.values().toArray(String[]::new), SortedColumns.sum(methods, other.methods, 1),
                rawThreadNames.plus(other.rawThreadNames));
    }

    /**
     * The sum of all, equal to folding them with {@link #plus} in order (the first name of a thread
     * id wins), in one pass over their rows instead of one merge per element: what reading a day
     * of a fleet's windows needs.
     */
    public static TreeCounts sum(Collection<TreeCounts> all) {
        List<TreeCounts> parts = new ArrayList<>(all.size());
        for (TreeCounts c : all) {
            if (!c.isEmpty()) {
                parts.add(c);
            }
        }
        if (parts.size() <= 1) {
            return parts.isEmpty() ? EMPTY : parts.get(0);
        }
        TreeMap<Long, String> dictionary = new TreeMap<>();
        List<long[][]> nodeTables = new ArrayList<>(parts.size());
        List<long[][]> threadTables = new ArrayList<>(parts.size());
        List<long[][]> methodTables = new ArrayList<>(parts.size());
        List<RawThreadNames> raw = new ArrayList<>(parts.size());
        for (TreeCounts c : parts) {
            raw.add(c.rawThreadNames);
            for (int i = 0; i < c.threadDictIds.length; i++) {
                dictionary.putIfAbsent(c.threadDictIds[i], c.threadDictNames[i]);
            }
            nodeTables.add(c.nodes);
            threadTables.add(c.threads);
            methodTables.add(c.methods);
        }
        return new TreeCounts(SortedColumns.sumAll(nodeTables, 1), SortedColumns.sumAll(threadTables, 2),
                dictionary.keySet().stream().mapToLong(Long::longValue).toArray(),
                dictionary.values().toArray(String[]::new), SortedColumns.sumAll(methodTables, 1),
                RawThreadNames.union(raw));
    }

    /**
     * These counts with the raw thread names seen behind their pool names (replacing any they had):
     * what the samples job attaches from a batch, and the graph store reads back.
     */
    public TreeCounts withRawThreadNames(RawThreadNames raw) {
        return new TreeCounts(nodes, threads, threadDictIds, threadDictNames, methods, raw);
    }

    /** The raw thread names kept with these counts ({@link RawThreadNames}, bounded per pool); summed as a union. */
    public RawThreadNames rawThreadNames() {
        return rawThreadNames;
    }

    public boolean isEmpty() {
        return nodes[0].length == 0 && threads[0].length == 0 && methods[0].length == 0;
    }

    public long[] nodeIds() {
        return nodes[0];
    }

    public long[] self() {
        return nodes[1];
    }

    public long[] total() {
        return nodes[2];
    }

    public long[] threadNodeIds() {
        return threads[0];
    }

    public long[] threadIds() {
        return threads[1];
    }

    public long[] threadSelf() {
        return threads[2];
    }

    public long[] threadDictIds() {
        return threadDictIds;
    }

    public String[] threadDictNames() {
        return threadDictNames;
    }

    /** The normalised name of a thread id, or null when the dictionary has none. */
    public String threadName(long threadId) {
        int i = Arrays.binarySearch(threadDictIds, threadId);
        return i < 0 ? null : threadDictNames[i];
    }

    public long[] methodIds() {
        return methods[0];
    }

    public long[] methodSamples() {
        return methods[1];
    }

    public long[] methodSelf() {
        return methods[2];
    }

    /** Samples of the counts: the root's total, 0 if the root has no row. */
    public long samples() {
        int i = Arrays.binarySearch(nodes[0], NodeId.ROOT);
        return i < 0 ? 0 : nodes[2][i];
    }

    private static long[][] checked(String table, int keyColumns, long[]... columns) {
        for (long[] c : columns) {
            Objects.requireNonNull(c, table + " column");
            if (c.length != columns[0].length) {
                throw new IllegalArgumentException(table + " counts: columns of different lengths");
            }
        }
        for (int r = 1; r < columns[0].length; r++) {
            int cmp = 0;
            for (int k = 0; k < keyColumns && cmp == 0; k++) {
                cmp = Long.compare(columns[k][r - 1], columns[k][r]);
            }
            if (cmp >= 0) {
                throw new IllegalArgumentException(table + " counts: rows not sorted by key, or a key twice, at row " + r);
            }
        }
        return columns;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TreeCounts t && Arrays.deepEquals(nodes, t.nodes) && Arrays.deepEquals(threads, t.threads)
                && Arrays.equals(threadDictIds, t.threadDictIds) && Arrays.equals(threadDictNames, t.threadDictNames)
                && Arrays.deepEquals(methods, t.methods) && rawThreadNames.equals(t.rawThreadNames);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(nodes[0]) * 31 + Arrays.hashCode(methods[0]);
    }

    @Override
    public String toString() {
        return "TreeCounts[" + nodes[0].length + " nodes, " + threads[0].length + " thread entries, "
                + methods[0].length + " methods, " + samples() + " samples]";
    }
}
