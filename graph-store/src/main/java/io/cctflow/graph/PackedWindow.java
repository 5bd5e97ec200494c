package io.cctflow.graph;

import io.cctflow.core.NodeId;
import io.cctflow.core.RawThreadNames;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.encoding.ByteReader;
import io.cctflow.core.encoding.ByteWriter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The byte form of a whole window's {@link TreeCounts} in one {@code :Window} property
 * ({@code counts}), lossless: {@link #unpack} returns tables equal to the packed ones. It replaces
 * eleven array properties (the layout before, still read), and it stores less per row:
 * <ul>
 *   <li>sorted 64-bit keys (node ids, method ids, thread ids) Elias-Fano coded (about 6.6 bytes
 *       each for 12,000 hashes, where zigzag varints took ten);
 *   <li>per node the self count and {@code total - self} (zero for a leaf), unsigned varints;
 *   <li>per (node, thread) entry the node's row in the node table as a gap from the previous entry's
 *       row (the entries are sorted by node id, so usually 0 or 1) and the thread's row in the
 *       thread dictionary, where the columns before repeated two 64-bit ids per entry;
 *   <li>thread and raw thread names as UTF-8 strings with their lengths.
 * </ul>
 * One property instead of eleven also saves Neo4j's per-property records and the rounding of each
 * array up to whole dynamic-store blocks, which weighs most on small windows.
 *
 * <p>Format: the version {@value #VERSION}, then the node, thread-dictionary, raw-name, thread and
 * method tables, each as its row count followed by its columns. Format {@value #PROJECTED} (a
 * projection, {@link SelfCounts}, which is what windows hold since): per node its self count only,
 * then the root's {@code total - self} when the root has a row, and no method table. Format
 * {@value #PROJECTED_BY_NODE}: the same, with the per-thread entries per node (what is written
 * when the entries are in node order, as a tree's always are). Format {@value #NUMBERED}: the same
 * again, with the node ids the store has numbered ({@link NodeNumbering}) coded by their small
 * numbers, which a reader turns back into ids with the store's numbering. Stateless and thread-safe.
 */
public final class PackedWindow {
    /** Eight bytes of an array as one little-endian long. */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** The format's first byte; another value is refused, so a later format can be told apart. */
    static final int VERSION = 1;
    /**
     * The format of a projection ({@link SelfCounts}): self counts only (the root's total beside
     * them) and no per-method table; what every window is written in. {@link #VERSION} is still read.
     */
    static final int PROJECTED = 2;
    /**
     * A projection ({@link #PROJECTED}) with its per-thread entries coded per node. First the
     * thread's row plus one if every sample ran on one thread (then nothing more: each node of
     * non-zero self has one entry on it, with all its self), else 0 and per node one varint
     * {@code v}: 0 for no entry (the root); for a node whose samples all ran on one thread (most
     * rows of a light window) its thread's row in the dictionary plus one (1 to d, d threads in the
     * dictionary), where format {@value #PROJECTED} wrote a row gap, the thread's row and the self
     * count again; else {@code d + k} followed by its k entries' thread rows and self counts. What
     * windows are written in since 2026-11-29 (when their entries are in node order, as a tree's
     * always are); {@link #PROJECTED} is still read.
     */
    static final int PROJECTED_BY_NODE = 3;
    /**
     * A projection coded per node ({@link #PROJECTED_BY_NODE}) whose node ids are mostly coded by
     * their numbers in the store ({@link NodeNumbering}): a random 64-bit id takes about 7.4 bytes
     * Elias-Fano coded, and was 85 % of a light window's bytes; a dense number about one. After the
     * version: the numbering's epoch (a varint of its 32 bits); the numbered nodes' numbers (their
     * count m, and if m &gt; 0 their universe U, the largest plus one, then the ascending numbers
     * Elias-Fano coded with floor(log2(U / m)) low bits); the ids of the other nodes as format
     * {@value #PROJECTED_BY_NODE} codes all; then the self counts, the root's {@code total - self},
     * the thread dictionary, the raw names and the per-node entries as format {@value
     * #PROJECTED_BY_NODE} writes them, except that the nodes come in <em>packed order</em>: the
     * numbered ones by number, then the others by id. Written when some node has a number (the
     * others have none yet); a reader needs a numbering of the same epoch that knows the numbers,
     * else {@link UnknownNodeNumbersException}.
     */
    static final int NUMBERED = 4;

    private PackedWindow() {
    }

    /**
     * The counts in one byte array, or {@code null} when they cannot be coded this way: a
     * per-thread entry whose node is not in the node table or whose thread is not in the thread
     * dictionary (never so in counts built from a tree; such tables are stored as columns). No id
     * is coded by a number: {@code pack(c, NodeNumbering.NONE)}.
     */
    public static byte[] pack(TreeCounts c) {
        return pack(c, NodeNumbering.NONE, true);
    }

    /**
     * {@link #pack(TreeCounts)}, with the node ids {@code numbering} has numbers of coded by them
     * (format {@value #NUMBERED}) when the counts are a projection ({@link SelfCounts}) with
     * per-thread entries in node order, as a tree's always are. Otherwise, or when no id has a
     * number, the bytes of {@link #pack(TreeCounts)}; so is a projection without per-thread entries
     * (at most the root's row: a window without samples), which format {@value #PROJECTED} codes in
     * a few bytes already.
     *
     * @throws IllegalArgumentException if {@code numbering} gives one number to two of the ids
     */
    public static byte[] pack(TreeCounts c, NodeNumbering numbering) {
        return pack(c, numbering, true);
    }

    /** {@link #pack(TreeCounts)}; with {@code byNodeAllowed} false a projection is written in format {@value #PROJECTED}. */
    static byte[] pack(TreeCounts c, boolean byNodeAllowed) {
        return pack(c, NodeNumbering.NONE, byNodeAllowed);
    }

    private static byte[] pack(TreeCounts c, NodeNumbering numbering, boolean byNodeAllowed) {
        long[] nodeIds = c.nodeIds();
        long[] threadNodeIds = c.threadNodeIds();
        long[] threadIds = c.threadIds();
        long[] dictIds = c.threadDictIds();
        int[] nodeRows = new int[threadNodeIds.length];
        int[] dictRows = new int[threadNodeIds.length];
        for (int e = 0; e < threadNodeIds.length; e++) {
            nodeRows[e] = Arrays.binarySearch(nodeIds, threadNodeIds[e]);
            dictRows[e] = Arrays.binarySearch(dictIds, threadIds[e]);
            if (nodeRows[e] < 0 || dictRows[e] < 0) {
                return null;
            }
        }
        boolean projected = SelfCounts.isProjected(c);
        boolean byNode = byNodeAllowed && projected && threadNodeIds.length > 0 && isNonDecreasing(nodeRows);
        long[] numbered = byNode ? numberedRows(nodeIds, numbering) : new long[0];
        int[] order = packedOrder(numbered, nodeIds.length);
        Out out = new Out(16 + nodeIds.length * 11 + threadNodeIds.length * 3 + c.methodIds().length * 11);
        if (numbered.length > 0) {
            out.varint(NUMBERED);
            out.varint32(numbering.epoch());
            long[] numbers = new long[numbered.length];
            Arrays.setAll(numbers, i -> numbered[i] >>> Integer.SIZE);
            out.numbers(numbers);
            long[] others = new long[nodeIds.length - numbered.length];
            Arrays.setAll(others, i -> nodeIds[order[numbered.length + i]]);
            out.keys(others);
        } else {
            out.varint(byNode ? PROJECTED_BY_NODE : projected ? PROJECTED : VERSION);
            out.keys(nodeIds);
        }
        long[] self = c.self();
        long[] total = c.total();
        for (int n : order) {
            out.varint(self[n]);
            if (!projected) {
                out.varint(total[n] - self[n]);
            }
        }
        int root = Arrays.binarySearch(nodeIds, NodeId.ROOT);
        if (projected && root >= 0) { // a projection's only total not equal to its self
            out.varint(total[root] - self[root]);
        }
        out.keys(dictIds);
        out.strings(c.threadDictNames());
        out.strings(c.rawThreadNames().names());
        long[] threadSelf = c.threadSelf();
        if (byNode) {
            packEntriesByNode(out, order, self, nodeRows, dictRows, threadSelf, dictIds.length);
            return out.bytes();
        }
        out.varint(threadNodeIds.length);
        int previousRow = 0;
        for (int e = 0; e < threadNodeIds.length; e++) {
            out.varint(nodeRows[e] - previousRow);
            previousRow = nodeRows[e];
            out.varint(dictRows[e]);
            out.varint(threadSelf[e]);
        }
        if (!projected) {
            out.keys(c.methodIds());
            long[] methodSamples = c.methodSamples();
            long[] methodSelf = c.methodSelf();
            for (int m = 0; m < methodSamples.length; m++) {
                out.varint(methodSamples[m]);
                out.varint(methodSelf[m]);
            }
        }
        return out.bytes();
    }

    /**
     * The rows of the nodes {@code numbering} has numbers of, each as its number times 2^32 plus its
     * row, in ascending order of number.
     *
     * @throws IllegalArgumentException if two have the same number
     */
    private static long[] numberedRows(long[] nodeIds, NodeNumbering numbering) {
        long[] numbered = new long[nodeIds.length];
        int m = 0;
        for (int n = 0; n < nodeIds.length; n++) {
            int number = numbering.numberOf(nodeIds[n]);
            if (number >= 0) {
                numbered[m++] = (long) number << Integer.SIZE | n;
            }
        }
        numbered = Arrays.copyOf(numbered, m);
        Arrays.sort(numbered);
        for (int i = 1; i < m; i++) {
            if (numbered[i] >>> Integer.SIZE == numbered[i - 1] >>> Integer.SIZE) {
                throw new IllegalArgumentException(numbering + " gives number " + (numbered[i] >>> Integer.SIZE)
                        + " to two node ids, " + nodeIds[(int) numbered[i - 1]] + " and " + nodeIds[(int) numbered[i]]);
            }
        }
        return numbered;
    }

    /** The rows of {@code rows} nodes in packed order: the {@code numbered} ones by number, then the others by row. */
    private static int[] packedOrder(long[] numbered, int rows) {
        int[] order = new int[rows];
        boolean[] isNumbered = new boolean[rows];
        int p = 0;
        for (long n : numbered) {
            order[p++] = (int) n;
            isNumbered[(int) n] = true;
        }
        for (int n = 0; n < rows; n++) {
            if (!isNumbered[n]) {
                order[p++] = n;
            }
        }
        return order;
    }

    /**
     * The per-thread entries of format {@value #PROJECTED_BY_NODE}: per node, in {@code order} (of
     * node rows; the entries, in row order, are grouped by their row).
     */
    private static void packEntriesByNode(Out out, int[] order, long[] self, int[] nodeRows, int[] dictRows,
            long[] threadSelf, int threads) {
        int uniform = uniformThread(self, nodeRows, dictRows, threadSelf);
        out.varint(uniform + 1L);
        if (uniform >= 0) {
            return;
        }
        int[] firstEntry = new int[self.length + 1]; // the entries of row n: firstEntry[n] to firstEntry[n + 1]
        for (int row : nodeRows) {
            firstEntry[row + 1]++;
        }
        for (int n = 0; n < self.length; n++) {
            firstEntry[n + 1] += firstEntry[n];
        }
        for (int n : order) {
            int first = firstEntry[n];
            int end = firstEntry[n + 1];
            if (end - first == 1 && threadSelf[first] == self[n]) {
                out.varint(dictRows[first] + 1L);
            } else if (end == first) {
                out.varint(0);
            } else {
                out.varint((long) threads + (end - first));
                for (int k = first; k < end; k++) {
                    out.varint(dictRows[k]);
                    out.varint(threadSelf[k]);
                }
            }
        }
    }

    /**
     * The thread row every sample ran on (each node of non-zero self has one entry, on that
     * thread, with all its self; a node of zero self has none: a single-threaded window, then
     * coded by that row alone), or -1.
     */
    private static int uniformThread(long[] self, int[] nodeRows, int[] dictRows, long[] threadSelf) {
        int thread = dictRows.length > 0 ? dictRows[0] : -1;
        int e = 0;
        for (int n = 0; n < self.length && thread >= 0; n++) {
            if (self[n] == 0) {
                if (e < nodeRows.length && nodeRows[e] == n) {
                    return -1;
                }
            } else if (e < nodeRows.length && nodeRows[e] == n && dictRows[e] == thread && threadSelf[e] == self[n]
                    && (e + 1 == nodeRows.length || nodeRows[e + 1] != n)) {
                e++;
            } else {
                return -1;
            }
        }
        return e == nodeRows.length ? thread : -1;
    }

    private static boolean isNonDecreasing(int[] rows) {
        for (int i = 1; i < rows.length; i++) {
            if (rows[i] < rows[i - 1]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The counts {@link #pack} packed: {@code unpack(bytes, NodeNumbering.NONE)}, so a numbered
     * window (format {@value #NUMBERED}) throws {@link UnknownNodeNumbersException}.
     *
     * @throws IllegalArgumentException if {@code bytes} is damaged or of another format version
     */
    public static TreeCounts unpack(byte[] bytes) {
        return unpack(bytes, NodeNumbering.NONE);
    }

    /**
     * The counts {@link #pack} packed, the node ids of a numbered window (format {@value #NUMBERED})
     * those of its numbers in {@code numbering}: one {@link NodeNumbering#idsOf} call per such
     * window. Windows of the formats before are read without the numbering.
     *
     * @throws IllegalArgumentException if {@code bytes} is damaged or of another format version, or
     *         {@code numbering} gives a number an id the window also holds (damage, or a numbering of
     *         another store with the same epoch)
     * @throws UnknownNodeNumbersException from {@code numbering}, when it does not know some numbers
     * @throws IllegalStateException if {@code numbering} answers a look-up with another count of ids
     */
    public static TreeCounts unpack(byte[] bytes, NodeNumbering numbering) {
        In in = new In(bytes);
        long version = in.varint();
        if (version < VERSION || version > NUMBERED) {
            throw new IllegalArgumentException("packed window of format " + version + ", expected " + VERSION
                    + ", " + PROJECTED + ", " + PROJECTED_BY_NODE + " or " + NUMBERED);
        }
        boolean projected = version != VERSION;
        long[] nodeIds;
        int[] order = null; // the row of each node in packed order; null when that is row order
        if (version == NUMBERED) {
            NumberedNodes nodes = numberedNodes(in, numbering);
            nodeIds = nodes.ids();
            order = nodes.order();
        } else {
            nodeIds = in.keys();
        }
        long[] self = new long[nodeIds.length];
        long[] total = new long[nodeIds.length];
        for (int p = 0; p < nodeIds.length; p++) {
            int n = order == null ? p : order[p];
            self[n] = in.varint();
            total[n] = self[n] + (projected ? 0 : in.varint());
        }
        int root = Arrays.binarySearch(nodeIds, NodeId.ROOT);
        if (projected && root >= 0) {
            total[root] += in.varint();
        }
        long[] dictIds = in.keys();
        String[] dictNames = in.strings();
        String[] rawNames = in.strings();
        if (version >= PROJECTED_BY_NODE) {
            Entries byNode = unpackEntriesByNode(in, nodeIds, self, dictIds, order);
            in.checkEnd();
            return TreeCounts.of(nodeIds, self, total, byNode.nodeIds(), byNode.threadIds(), byNode.self(), dictIds,
                    dictNames, new long[0], new long[0], new long[0]).withRawThreadNames(RawThreadNames.of(rawNames));
        }
        int entries = in.count();
        long[] threadNodeIds = new long[entries];
        long[] threadIds = new long[entries];
        long[] threadSelf = new long[entries];
        int row = 0;
        for (int e = 0; e < entries; e++) {
            row += in.count();
            threadNodeIds[e] = nodeIds[in.row(row, nodeIds.length)];
            threadIds[e] = dictIds[in.row(in.count(), dictIds.length)];
            threadSelf[e] = in.varint();
        }
        long[] methodIds = projected ? new long[0] : in.keys();
        long[] methodSamples = new long[methodIds.length];
        long[] methodSelf = new long[methodIds.length];
        for (int m = 0; m < methodIds.length; m++) {
            methodSamples[m] = in.varint();
            methodSelf[m] = in.varint();
        }
        in.checkEnd();
        return TreeCounts.of(nodeIds, self, total, threadNodeIds, threadIds, threadSelf, dictIds, dictNames,
                methodIds, methodSamples, methodSelf).withRawThreadNames(RawThreadNames.of(rawNames));
    }

    /** Node ids, sorted, and the row of each in packed order. */
    private record NumberedNodes(long[] ids, int[] order) {
    }

    /**
     * The node ids of a window of format {@value #NUMBERED} (the epoch, the numbers and the other
     * ids) with the numbered ones looked up in {@code numbering}.
     */
    private static NumberedNodes numberedNodes(In in, NodeNumbering numbering) {
        int epoch = in.varint32();
        int[] numbers = in.numbers();
        long[] others = in.keys();
        long[] numberedIds = numbering.idsOf(epoch, numbers);
        if (numberedIds.length != numbers.length) {
            throw new IllegalStateException(numbering + " gave " + numberedIds.length + " ids for " + numbers.length
                    + " numbers");
        }
        for (int i = 1; i < others.length; i++) {
            if (others[i] <= others[i - 1]) {
                throw in.damaged("node ids out of order");
            }
        }
        long[] packed = Arrays.copyOf(numberedIds, numbers.length + others.length);
        System.arraycopy(others, 0, packed, numbers.length, others.length);
        int n = packed.length;
        // one sort of primitives gives both the order and where each packed node goes: an id's high
        // word (which orders ids first, as signed longs) above its place in packed order; ids that
        // share a high word (about one pair in 10,000 windows of 846 nodes) are then put in order
        long[] keys = new long[n];
        for (int p = 0; p < n; p++) {
            keys[p] = (packed[p] >> 32) << 32 | p;
        }
        Arrays.sort(keys);
        int[] byRow = new int[n];
        for (int r = 0; r < n; r++) {
            byRow[r] = (int) keys[r];
            for (int j = r; j > 0 && packed[byRow[j - 1]] >> 32 == packed[byRow[j]] >> 32
                    && packed[byRow[j - 1]] > packed[byRow[j]]; j--) {
                int swap = byRow[j];
                byRow[j] = byRow[j - 1];
                byRow[j - 1] = swap;
            }
        }
        long[] ids = new long[n];
        int[] order = new int[n];
        for (int r = 0; r < n; r++) {
            ids[r] = packed[byRow[r]];
            order[byRow[r]] = r;
            if (r > 0 && ids[r] == ids[r - 1]) {
                throw in.damaged("node id " + ids[r] + " twice (of two numbers, or of a number and among the others)");
            }
        }
        return new NumberedNodes(ids, order);
    }

    /** Per-thread entries: parallel columns. */
    private record Entries(long[] nodeIds, long[] threadIds, long[] self) {
    }

    /** The entries of a window whose samples all ran on thread row {@code uniform - 1}: one per node of non-zero self. */
    private static Entries uniformEntries(In in, long uniform, long[] nodeIds, long[] self, long[] dictIds) {
        int threads = dictIds.length;
        int row = in.row(uniform < 0 || uniform > threads ? -1 : (int) uniform - 1, threads);
        int entries = 0;
        for (long s : self) {
            entries += s != 0 ? 1 : 0;
        }
        long[] node = new long[entries];
        long[] thread = new long[entries];
        long[] threadSelf = new long[entries];
        for (int n = 0, e = 0; n < nodeIds.length; n++) {
            if (self[n] != 0) {
                node[e] = nodeIds[n];
                thread[e] = dictIds[row];
                threadSelf[e++] = self[n];
            }
        }
        return new Entries(node, thread, threadSelf);
    }

    /**
     * What {@link #packEntriesByNode} wrote, in row order: per node of the rows {@code order} lists
     * (all of them, in the order packed), or of all rows in order when {@code order} is null.
     */
    private static Entries unpackEntriesByNode(In in, long[] nodeIds, long[] self, long[] dictIds, int[] order) {
        long uniform = in.varint();
        if (uniform != 0) { // one thread
            return uniformEntries(in, uniform, nodeIds, self, dictIds);
        }
        long[] node = new long[nodeIds.length];
        long[] thread = new long[nodeIds.length];
        long[] threadSelf = new long[nodeIds.length];
        int[] counts = order == null ? null : new int[nodeIds.length]; // per node in packed order
        int entries = 0;
        int threads = dictIds.length;
        for (int p = 0; p < nodeIds.length; p++) {
            int n = order == null ? p : order[p];
            long v = in.varint();
            boolean single = v >= 1 && v <= threads;
            int k = v == 0 ? 0 : single ? 1 : in.count(v - threads);
            if (counts != null) {
                counts[p] = k;
            }
            if (entries + k > node.length) {
                int capacity = Math.max(entries + k, 2 * node.length);
                node = Arrays.copyOf(node, capacity);
                thread = Arrays.copyOf(thread, capacity);
                threadSelf = Arrays.copyOf(threadSelf, capacity);
            }
            for (int j = 0; j < k; j++, entries++) {
                node[entries] = nodeIds[n];
                if (single) {
                    thread[entries] = dictIds[(int) v - 1];
                    threadSelf[entries] = self[n];
                } else {
                    thread[entries] = dictIds[in.row(in.count(), dictIds.length)];
                    threadSelf[entries] = in.varint();
                }
            }
        }
        Entries packed = new Entries(Arrays.copyOf(node, entries), Arrays.copyOf(thread, entries),
                Arrays.copyOf(threadSelf, entries));
        return order == null ? packed : inRowOrder(packed, counts, order);
    }

    /**
     * Entries grouped per node in packed order ({@code counts[p]} entries of the node of row {@code
     * order[p]}, each group in thread order) put in row order, so sorted by node then thread.
     */
    private static Entries inRowOrder(Entries packed, int[] counts, int[] order) {
        int[] firstOfRow = new int[order.length];
        int[] countOfRow = new int[order.length];
        for (int p = 0, first = 0; p < order.length; p++) {
            firstOfRow[order[p]] = first;
            countOfRow[order[p]] = counts[p];
            first += counts[p];
        }
        int entries = packed.nodeIds().length;
        long[] node = new long[entries];
        long[] thread = new long[entries];
        long[] threadSelf = new long[entries];
        for (int n = 0, e = 0; n < order.length; n++) {
            System.arraycopy(packed.nodeIds(), firstOfRow[n], node, e, countOfRow[n]);
            System.arraycopy(packed.threadIds(), firstOfRow[n], thread, e, countOfRow[n]);
            System.arraycopy(packed.self(), firstOfRow[n], threadSelf, e, countOfRow[n]);
            e += countOfRow[n];
        }
        return new Entries(node, thread, threadSelf);
    }

    /** Low bits stored per key of {@code n} (at least 1) Elias-Fano coded keys: log2(2^64 / n), rounded down. */
    private static int lowBits(int n) {
        return Long.numberOfLeadingZeros(n);
    }

    /** Low bits stored per number of {@code n} (at least 1) Elias-Fano coded numbers below {@code universe} (at least n). */
    private static int lowBits(long universe, int n) {
        return Long.SIZE - 1 - Long.numberOfLeadingZeros(universe / n);
    }

    /** The window's bytes: {@link ByteWriter}'s varints, and bit-packed sections of keys. */
    private static final class Out {
        private final ByteWriter out;

        Out(int capacity) {
            out = new ByteWriter(capacity);
        }

        /** Callers end bit sections first ({@link #flushBits}). */
        void varint(long v) {
            out.varint(v);
        }

        /** All 32 bits of {@code v}, as {@link ByteWriter#varint32}. */
        void varint32(int v) {
            out.varint32(v);
        }

        /**
         * Strictly ascending keys, Elias-Fano coded: their count; per key its low {@link #lowBits}
         * bits, packed; then the high bits as gaps in unary (a zero per step, a one per key).
         * Keys are compared unsigned after flipping the sign bit, which keeps their order. Random
         * 64-bit hashes cost the low bits plus about two bits each: 6.6 bytes for 12,000 of them,
         * where varint gaps took 7.7.
         */
        void keys(long[] sorted) {
            int n = sorted.length;
            varint(n);
            if (n > 0) {
                eliasFano(sorted, lowBits(n), Long.MIN_VALUE);
            }
        }

        /**
         * Strictly ascending numbers of a small universe (node numbers: at least 0, below 2^31),
         * Elias-Fano coded as {@link #keys} codes keys, but with the universe written (the largest
         * number plus one, after the count, when there are any) and the low bits chosen for it:
         * about two bits per number plus log2 of its share of the universe, so a byte or less for
         * the dense numbers of a store's nodes.
         */
        void numbers(long[] sorted) {
            int n = sorted.length;
            varint(n);
            if (n > 0) {
                long universe = sorted[n - 1] + 1;
                varint(universe);
                eliasFano(sorted, lowBits(universe, n), 0);
            }
        }

        /**
         * The Elias-Fano sections of strictly ascending keys, each coded as {@code key ^ flip}
         * (which must keep their order): the low {@code low} bits of each, packed; then the high bits
         * as gaps in unary.
         */
        private void eliasFano(long[] sorted, int low, long flip) {
            for (long k : sorted) {
                bits(k ^ flip, low);
            }
            flushBits();
            long previousHigh = 0;
            for (long k : sorted) {
                long high = (k ^ flip) >>> low;
                for (long step = previousHigh; step < high; step++) {
                    bits(0, 1);
                }
                bits(1, 1);
                previousHigh = high;
            }
            flushBits();
        }

        private long acc;
        private int accBits;

        /** Appends the low {@code width} (at most 63) bits of {@code value}, least significant first. */
        private void bits(long value, int width) {
            for (int done = 0; done < width; ) {
                int take = Math.min(32, width - done);
                acc |= ((value >>> done) & ((1L << take) - 1)) << accBits;
                accBits += take;
                done += take;
                while (accBits >= 8) {
                    putByte(acc);
                    acc >>>= 8;
                    accBits -= 8;
                }
            }
        }

        /** Ends a bit section at a byte boundary. */
        private void flushBits() {
            if (accBits > 0) {
                putByte(acc);
            }
            acc = 0;
            accBits = 0;
        }

        private void putByte(long b) {
            out.write((int) b);
        }

        void strings(String[] strings) {
            varint(strings.length);
            for (String s : strings) {
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                varint(utf8.length);
                out.write(utf8);
            }
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    /** Reads what {@link Out} wrote, refusing anything cut off or out of range. */
    private static final class In {
        private final ByteReader in;
        private final byte[] buf;

        In(byte[] buf) {
            this.in = new ByteReader(buf, (at, length, what) ->
                    new IllegalArgumentException("damaged packed window: " + what + " at byte " + at + " of " + length));
            this.buf = buf;
        }

        long varint() {
            return in.varint();
        }

        int varint32() {
            return in.varint32();
        }

        /** A row count or index: at most the bytes left, so damage cannot allocate a huge array. */
        int count() {
            return count(varint());
        }

        /** {@link #count()} of a value read. */
        int count(long n) {
            if (n < 0 || n > buf.length) {
                throw damaged("a count of " + n);
            }
            return (int) n;
        }

        int row(int row, int rows) {
            if (row < 0 || row >= rows) { // below 0: gaps summed past the int range
                throw damaged("row " + row + " of a table of " + rows);
            }
            return row;
        }

        /**
         * What {@link Out#keys} wrote; keys out of order are refused by {@link TreeCounts#of}.
         * Eight bytes at a time: a cold range read decodes millions of keys, and a bit at a time
         * this took three times as long as the varints before.
         */
        long[] keys() {
            int n = count();
            if (n == 0) {
                return new long[0];
            }
            int low = lowBits(n);
            return eliasFano(n, low, Long.MIN_VALUE, 1L << (Long.SIZE - low));
        }

        /**
         * What {@link Out#numbers} wrote; numbers out of order, or a largest other than the universe
         * less one, are refused.
         */
        int[] numbers() {
            int n = count();
            if (n == 0) {
                return new int[0];
            }
            long universe = varint();
            if (universe < n || universe > 1L << (Integer.SIZE - 1)) {
                throw damaged("a universe of " + universe + " for " + n + " node numbers");
            }
            int low = lowBits(universe, n);
            long[] decoded = eliasFano(n, low, 0, ((universe - 1) >>> low) + 1);
            int[] numbers = new int[n];
            for (int i = 0; i < n; i++) {
                if (i > 0 && decoded[i] <= decoded[i - 1]) {
                    throw damaged("node numbers out of order");
                }
                numbers[i] = (int) decoded[i];
            }
            if (decoded[n - 1] != universe - 1) {
                throw damaged("a largest node number of " + decoded[n - 1] + " in a universe of " + universe);
            }
            return numbers;
        }

        /**
         * What {@link Out#eliasFano} wrote of {@code n} keys with {@code low} low bits and the high
         * bits below {@code highLimit}.
         */
        private long[] eliasFano(int n, int low, long flip, long highLimit) {
            long[] keys = new long[n];
            long lowMask = (1L << low) - 1; // low < 64: at least one bit of each key is in its high part
            int lowStart = in.position();
            long lowEnd = lowStart + (((long) n * low + 7) >>> 3);
            if (lowEnd > buf.length) {
                throw damaged("cut off");
            }
            for (int k = 0; k < n; k++) {
                keys[k] = lowBitsAt(lowStart, (long) k * low, low) & lowMask;
            }
            int unaryStart = (int) lowEnd;
            int found = 0;
            for (int p = unaryStart; ; p += Long.BYTES) {
                if (p >= buf.length) {
                    throw damaged("cut off");
                }
                long word = p + Long.BYTES <= buf.length ? (long) WORDS.get(buf, p) : tail(p);
                while (word != 0) {
                    long bit = 8L * (p - unaryStart) + Long.numberOfTrailingZeros(word);
                    long high = bit - found; // the ones before this one each took a bit
                    if (high >= highLimit) {
                        throw damaged("a key beyond its universe");
                    }
                    keys[found] = ((high << low) | keys[found]) ^ flip;
                    if (++found == n) {
                        in.position(unaryStart + (int) (bit >>> 3) + 1);
                        return keys;
                    }
                    word &= word - 1;
                }
            }
        }

        /** The bits from {@code bitOffset} on of the section at {@code start}: at least {@code width} (at most 63) of them. */
        private long lowBitsAt(int start, long bitOffset, int width) {
            int b = start + (int) (bitOffset >>> 3);
            int shift = (int) (bitOffset & 7);
            if (b + Long.BYTES < buf.length) {
                long v = (long) WORDS.get(buf, b) >>> shift;
                return shift + width > Long.SIZE ? v | (long) (buf[b + Long.BYTES] & 0xFF) << (Long.SIZE - shift) : v;
            }
            long v = 0; // within the last nine bytes: a byte at a time (the section's own bytes are in bounds)
            for (int k = 0; k * 8 - shift < width && b + k < buf.length; k++) {
                long octet = buf[b + k] & 0xFF;
                v |= k == 0 ? octet >>> shift : octet << (k * 8 - shift);
            }
            return v;
        }

        /** The last (fewer than eight) bytes from {@code p} as a little-endian word. */
        private long tail(int p) {
            long word = 0;
            for (int k = 0; p + k < buf.length; k++) {
                word |= (long) (buf[p + k] & 0xFF) << (8 * k);
            }
            return word;
        }

        String[] strings() {
            String[] strings = new String[count()];
            for (int i = 0; i < strings.length; i++) {
                int length = count();
                strings[i] = new String(buf, in.skip(length), length, StandardCharsets.UTF_8);
            }
            return strings;
        }

        void checkEnd() {
            if (in.remaining() != 0) {
                throw damaged(in.remaining() + " bytes after the last table");
            }
        }

        private RuntimeException damaged(String what) {
            return in.damaged(what);
        }
    }
}
