package io.cctflow.graph;

/**
 * The byte form of a window's long arrays ({@code :Window} properties): each value zigzag-encoded
 * as a LEB128 varint, so small counts take one or two bytes and a 64-bit node id ten. A Neo4j
 * {@code long[]} property reaches the driver as one boxed value per element; a {@code byte[]} as
 * one array, which is what makes reading a day of a fleet's windows cheap. Stateless.
 */
final class PackedLongs {
    private PackedLongs() {
    }

    static byte[] pack(long[] values) {
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

    /** @throws IllegalArgumentException if {@code bytes} ends inside a value or a value is too long */
    static long[] unpack(byte[] bytes) {
        int count = 0;
        for (byte b : bytes) { // one value ends at each byte without the continuation bit
            count += (b >>> 31) ^ 1;
        }
        long[] out = new long[count];
        int pos = 0;
        for (int n = 0; n < count; n++) {
            long z = 0;
            int shift = 0;
            while (true) {
                byte b = bytes[pos++]; // in bounds: a value ends before the last terminator
                z |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    break;
                }
                shift += 7;
                if (shift > 63) {
                    throw damaged(pos, bytes.length);
                }
            }
            out[n] = (z >>> 1) ^ -(z & 1);
        }
        if (pos != bytes.length) {
            throw damaged(pos, bytes.length); // trailing bytes with the continuation bit: a value cut off
        }
        return out;
    }

    private static IllegalArgumentException damaged(int pos, int length) {
        return new IllegalArgumentException("damaged packed array: a value is cut off or longer than 10 bytes at"
                + " byte " + pos + " of " + length);
    }
}
