package io.cctflow.flink.ingest;

import java.io.EOFException;
import java.io.IOException;

/**
 * Reads Avro's binary encoding straight from a record's bytes, as Avro's {@code BinaryDecoder}
 * reads it (zigzag varints of at most 5 bytes for an int and 10 for a long, booleans as one byte
 * that is true only when 1, block-counted arrays and maps whose negative count is followed by the
 * block's size), but without a buffer of its own: a string is left in place (its offset and length)
 * for the caller to compare or decode, and an int costs no call beyond the loop reading it. Errors
 * are {@link IOException}s, as Avro's: an encoding too long, data ending early, a count Avro's
 * collection limit refuses.
 *
 * <p>Not thread-safe; reused from record to record.
 */
final class AvroCursor {
    /** Avro's default collection limit ({@code SystemLimitException}): items of one array or map. */
    private static final long MAX_ITEMS = Integer.MAX_VALUE - 8;

    private byte[] buf;
    private int pos;
    private int limit;

    /** Reads {@code buf} from {@code from} to {@code to}. */
    AvroCursor reset(byte[] buf, int from, int to) {
        this.buf = buf;
        this.pos = from;
        this.limit = to;
        return this;
    }

    byte[] bytes() {
        return buf;
    }

    int position() {
        return pos;
    }

    int readInt() throws IOException {
        int p = pos;
        if (p >= limit) {
            throw new EOFException();
        }
        int b = buf[p++];
        int n = b & 0x7f;
        if (b < 0) {
            int shift = 7;
            do {
                if (shift > 28) {
                    throw new IOException("Invalid int encoding");
                }
                if (p >= limit) {
                    throw new EOFException();
                }
                b = buf[p++];
                n ^= (b & 0x7f) << shift;
                shift += 7;
            } while (b < 0);
        }
        pos = p;
        return (n >>> 1) ^ -(n & 1);
    }

    /**
     * Reads {@code n} ints, each as {@link #readInt}, into {@code into} from {@code at}: the loop of
     * an int array's block, with the position in a local. {@code into} must have room for {@code
     * min(n, remaining())} of them: each takes a byte at least, so no more can be read before the
     * data ends ({@link EOFException}). The varint loop repeats {@link #readInt}'s on purpose: one
     * helper shared by both, returning value and position packed in a long, decoded a third slower
     * (MergePathBenchmark, 2026-11-29, journal pipeline.md).
     */
    void readInts(int[] into, int at, long n) throws IOException {
        byte[] b = buf;
        int p = pos;
        int end = limit;
        for (long i = 0; i < n; i++) {
            if (p >= end) {
                throw new EOFException();
            }
            int v = b[p++];
            int x = v & 0x7f;
            if (v < 0) {
                int shift = 7;
                do {
                    if (shift > 28) {
                        throw new IOException("Invalid int encoding");
                    }
                    if (p >= end) {
                        throw new EOFException();
                    }
                    v = b[p++];
                    x ^= (v & 0x7f) << shift;
                    shift += 7;
                } while (v < 0);
            }
            into[at++] = (x >>> 1) ^ -(x & 1);
        }
        pos = p;
    }

    /** Bytes left to read. */
    int remaining() {
        return limit - pos;
    }

    long readLong() throws IOException {
        int p = pos;
        long n = 0;
        int shift = 0;
        int b;
        do {
            if (shift > 63) {
                throw new IOException("Invalid long encoding");
            }
            if (p >= limit) {
                throw new EOFException();
            }
            b = buf[p++];
            n ^= (long) (b & 0x7f) << shift;
            shift += 7;
        } while (b < 0);
        pos = p;
        return (n >>> 1) ^ -(n & 1);
    }

    boolean readBoolean() throws IOException {
        if (pos >= limit) {
            throw new EOFException();
        }
        return buf[pos++] == 1;
    }

    /**
     * The item count of the next block of an array or map (0 at its end); {@code before} is the
     * number of items of the earlier blocks, for the collection limit.
     */
    long readCount(long before) throws IOException {
        long count = readLong();
        if (count < 0) {
            readLong(); // the block's size in bytes
            count = -count;
        }
        if (count < 0 || before + count > MAX_ITEMS) {
            throw new IOException("collection of " + (before + count) + " items exceeds Avro's limit");
        }
        return count;
    }

    /**
     * The length of the next string, its bytes left in place from {@link #position()} on, skipped.
     * A length longer than {@code maxLength} is refused before anything is read.
     */
    int skipString(int maxLength) throws IOException {
        int length = readInt();
        if (length < 0 || length > maxLength) {
            throw new IOException("string of " + length + " bytes in a record of " + maxLength);
        }
        if (length > limit - pos) {
            throw new EOFException();
        }
        pos += length;
        return length;
    }
}
