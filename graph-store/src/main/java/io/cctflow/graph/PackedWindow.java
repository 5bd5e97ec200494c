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
 * now when the entries are in node order, as a tree's always are). Stateless and thread-safe.
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

    private PackedWindow() {
    }

    /**
     * The counts in one byte array, or {@code null} when they cannot be coded this way: a
     * per-thread entry whose node is not in the node table or whose thread is not in the thread
     * dictionary (never so in counts built from a tree; such tables are stored as columns).
     */
    public static byte[] pack(TreeCounts c) {
        return pack(c, true);
    }

    /** {@link #pack}; with {@code byNodeAllowed} false a projection is written in format {@value #PROJECTED}. */
    static byte[] pack(TreeCounts c, boolean byNodeAllowed) {
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
        Out out = new Out(16 + nodeIds.length * 11 + threadNodeIds.length * 3 + c.methodIds().length * 11);
        out.varint(byNode ? PROJECTED_BY_NODE : projected ? PROJECTED : VERSION);
        out.keys(nodeIds);
        long[] self = c.self();
        long[] total = c.total();
        for (int n = 0; n < nodeIds.length; n++) {
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
            packEntriesByNode(out, self, nodeRows, dictRows, threadSelf, dictIds.length);
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

    /** The per-thread entries of format {@value #PROJECTED_BY_NODE}: per node, in row order. */
    private static void packEntriesByNode(Out out, long[] self, int[] nodeRows, int[] dictRows, long[] threadSelf,
            int threads) {
        int uniform = uniformThread(self, nodeRows, dictRows, threadSelf);
        out.varint(uniform + 1L);
        if (uniform >= 0) {
            return;
        }
        int e = 0;
        for (int n = 0; n < self.length; n++) {
            int first = e;
            while (e < nodeRows.length && nodeRows[e] == n) {
                e++;
            }
            if (e - first == 1 && threadSelf[first] == self[n]) {
                out.varint(dictRows[first] + 1L);
            } else if (e == first) {
                out.varint(0);
            } else {
                out.varint((long) threads + (e - first));
                for (int k = first; k < e; k++) {
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
     * The counts {@link #pack} packed.
     *
     * @throws IllegalArgumentException if {@code bytes} is damaged or of another format version
     */
    public static TreeCounts unpack(byte[] bytes) {
        In in = new In(bytes);
        long version = in.varint();
        if (version != VERSION && version != PROJECTED && version != PROJECTED_BY_NODE) {
            throw new IllegalArgumentException("packed window of format " + version + ", expected " + VERSION
                    + ", " + PROJECTED + " or " + PROJECTED_BY_NODE);
        }
        boolean projected = version != VERSION;
        long[] nodeIds = in.keys();
        long[] self = new long[nodeIds.length];
        long[] total = new long[nodeIds.length];
        for (int n = 0; n < nodeIds.length; n++) {
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
        if (version == PROJECTED_BY_NODE) {
            Entries byNode = unpackEntriesByNode(in, nodeIds, self, dictIds);
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

    /** What {@link #packEntriesByNode} wrote. */
    private static Entries unpackEntriesByNode(In in, long[] nodeIds, long[] self, long[] dictIds) {
        long uniform = in.varint();
        if (uniform != 0) { // one thread
            return uniformEntries(in, uniform, nodeIds, self, dictIds);
        }
        long[] node = new long[nodeIds.length];
        long[] thread = new long[nodeIds.length];
        long[] threadSelf = new long[nodeIds.length];
        int entries = 0;
        int threads = dictIds.length;
        for (int n = 0; n < nodeIds.length; n++) {
            long v = in.varint();
            boolean single = v >= 1 && v <= threads;
            int k = v == 0 ? 0 : single ? 1 : in.count(v - threads);
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
        return new Entries(Arrays.copyOf(node, entries), Arrays.copyOf(thread, entries), Arrays.copyOf(threadSelf, entries));
    }

    /** Low bits stored per key of {@code n} (at least 1) Elias-Fano coded keys: log2(2^64 / n), rounded down. */
    private static int lowBits(int n) {
        return Long.numberOfLeadingZeros(n);
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
            if (n == 0) {
                return;
            }
            int low = lowBits(n);
            for (long k : sorted) {
                bits(k ^ Long.MIN_VALUE, low);
            }
            flushBits();
            long previousHigh = 0;
            for (long k : sorted) {
                long high = (k ^ Long.MIN_VALUE) >>> low;
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
            long[] keys = new long[count()];
            int n = keys.length;
            if (n == 0) {
                return keys;
            }
            int low = lowBits(n);
            long lowMask = (1L << low) - 1; // low >= 33 for any count an int holds
            int lowStart = in.position();
            long lowEnd = lowStart + (((long) n * low + 7) >>> 3);
            if (lowEnd > buf.length) {
                throw damaged("cut off");
            }
            for (int k = 0; k < n; k++) {
                keys[k] = lowBitsAt(lowStart, (long) k * low, low) & lowMask;
            }
            int unaryStart = (int) lowEnd;
            long highLimit = 1L << (Long.SIZE - low);
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
                        throw damaged("a key beyond 64 bits");
                    }
                    keys[found] = ((high << low) | keys[found]) ^ Long.MIN_VALUE;
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
