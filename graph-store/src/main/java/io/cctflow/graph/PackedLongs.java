package io.cctflow.graph;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The byte form of a window's long arrays ({@code :Window} properties): each value zigzag-encoded
 * as a LEB128 varint, so small counts take one or two bytes and a 64-bit node id ten. A Neo4j
 * {@code long[]} property reaches the driver as one boxed value per element; a {@code byte[]} as
 * one array, which is what makes reading a day of a fleet's windows cheap. Stateless.
 */
public final class PackedLongs {
    /** Eight bytes of an array as one little-endian long (one load where the platform allows it). */
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** The continuation bit of each byte of a word: clear where a value ends. */
    private static final long CONTINUATION_BITS = 0x8080_8080_8080_8080L;

    private PackedLongs() {
    }

    public static byte[] pack(long[] values) {
        // sized exactly first: node ids take ten bytes each, so growing a guess copied the array
        // several times
        int length = 0;
        for (long v : values) {
            length += varintLength((v << 1) ^ (v >> 63));
        }
        byte[] out = new byte[length];
        int pos = 0;
        for (long v : values) {
            long z = (v << 1) ^ (v >> 63);
            while ((z & ~0x7FL) != 0) {
                out[pos++] = (byte) ((z & 0x7F) | 0x80);
                z >>>= 7;
            }
            out[pos++] = (byte) z;
        }
        return out;
    }

    /** Bytes of {@code z} as an unsigned LEB128 varint: one per started 7 bits, at least one. */
    private static int varintLength(long z) {
        return 1 + (63 - Long.numberOfLeadingZeros(z | 1)) / 7;
    }

    /**
     * Reads eight bytes at once: a range read of a fleet's day unpacks millions of values, most of
     * them node ids of ten bytes each, and a byte at a time this loop was most of what the query
     * service spent on a cold read.
     *
     * @throws IllegalArgumentException if {@code bytes} ends inside a value or a value is too long
     */
    public static long[] unpack(byte[] bytes) {
        long[] out = new long[terminators(bytes)];
        int pos = 0;
        int wordEnd = bytes.length - Long.BYTES; // a word read at pos <= wordEnd stays in bounds
        for (int n = 0; n < out.length; n++) {
            long z;
            byte first = bytes[pos]; // in bounds: a value ends before the last terminator
            if (first >= 0) {
                z = first; // one byte: the common case for counts
                pos++;
            } else if (pos <= wordEnd) {
                long word = (long) WORDS.get(bytes, pos);
                long ends = ~word & CONTINUATION_BITS;
                if (ends != 0) {
                    int length = (Long.numberOfTrailingZeros(ends) >>> 3) + 1; // 2..8 bytes
                    z = payload(word & (-1L >>> (Long.SIZE - 8 * length)));
                    pos += length;
                } else { // 9 or 10 bytes: 56 bits from the word, the rest from one or two more bytes
                    z = payload(word);
                    byte b = bytes[pos + 8]; // in bounds: this value ends at a later terminator
                    z |= (long) (b & 0x7F) << 56;
                    pos += 9;
                    if (b < 0) {
                        b = bytes[pos++];
                        z |= (long) (b & 0x7F) << 63;
                        if (b < 0) {
                            throw damaged(pos, bytes.length);
                        }
                    }
                }
            } else { // within the last eight bytes: a byte at a time
                z = 0;
                int shift = 0;
                byte b;
                do {
                    if (shift > 63) {
                        throw damaged(pos, bytes.length);
                    }
                    b = bytes[pos++];
                    z |= (long) (b & 0x7F) << shift;
                    shift += 7;
                } while (b < 0);
            }
            out[n] = (z >>> 1) ^ -(z & 1);
        }
        if (pos != bytes.length) {
            throw damaged(pos, bytes.length); // trailing bytes with the continuation bit: a value cut off
        }
        return out;
    }

    /** Values in {@code bytes}: one ends at each byte without the continuation bit. */
    private static int terminators(byte[] bytes) {
        int count = 0;
        int i = 0;
        for (; i <= bytes.length - Long.BYTES; i += Long.BYTES) {
            count += Long.bitCount(~(long) WORDS.get(bytes, i) & CONTINUATION_BITS);
        }
        for (; i < bytes.length; i++) {
            count += (bytes[i] >>> 31) ^ 1;
        }
        return count;
    }

    /** The 7-bit groups of the (up to eight) little-endian bytes of {@code word}, joined: 56 bits at most. */
    private static long payload(long word) {
        long x = word & 0x7F7F_7F7F_7F7F_7F7FL;
        x = (x & 0x007F_007F_007F_007FL) | ((x & 0x7F00_7F00_7F00_7F00L) >>> 1);
        x = (x & 0x0000_3FFF_0000_3FFFL) | ((x & 0x3FFF_0000_3FFF_0000L) >>> 2);
        return (x & 0x0000_0000_0FFF_FFFFL) | ((x & 0x0FFF_FFFF_0000_0000L) >>> 4);
    }

    private static IllegalArgumentException damaged(int pos, int length) {
        return new IllegalArgumentException("damaged packed array: a value is cut off or longer than 10 bytes at"
                + " byte " + pos + " of " + length);
    }
}
