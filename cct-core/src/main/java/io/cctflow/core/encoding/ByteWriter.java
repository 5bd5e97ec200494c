package io.cctflow.core.encoding;

import java.util.Arrays;

/**
 * A growing byte array: unsigned LEB128 varints (7 bits a byte, low first, the high bit set on
 * every byte but the last), 8-byte big-endian longs and raw bytes. {@link ByteReader} reads them
 * back. The bytes of each value are part of stored formats: they never change.
 *
 * <p>Not thread-safe.
 */
public final class ByteWriter {
    private byte[] buf;
    private int length;

    /** @param capacity bytes held before the first growth (any value; at least 16 are allocated) */
    public ByteWriter(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    /** {@code value} as an unsigned 64-bit varint: 1 to 10 bytes (a negative value takes 10). */
    public void varint(long value) {
        ensure(10);
        while ((value & ~0x7FL) != 0) {
            buf[length++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        buf[length++] = (byte) value;
    }

    /**
     * {@code value}'s 32 bits as an unsigned varint: 1 to 5 bytes (a negative value, e.g. a zigzag
     * code with the sign bit set, takes 5). {@link ByteReader#varint32} reads it back.
     */
    public void varint32(int value) {
        varint(value & 0xFFFF_FFFFL);
    }

    /** {@code value} in 8 bytes, most significant first. */
    public void longBigEndian(long value) {
        ensure(Long.BYTES);
        for (int i = Long.BYTES - 1; i >= 0; i--) {
            buf[length++] = (byte) (value >>> (8 * i));
        }
    }

    /** The low 8 bits of {@code value}. */
    public void write(int value) {
        ensure(1);
        buf[length++] = (byte) value;
    }

    /** {@code bytes} as they are. */
    public void write(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, length, bytes.length);
        length += bytes.length;
    }

    /** What {@code other} holds so far, as it is. */
    public void write(ByteWriter other) {
        ensure(other.length);
        System.arraycopy(other.buf, 0, buf, length, other.length);
        length += other.length;
    }

    /** Bytes written. */
    public int length() {
        return length;
    }

    /** A copy of the bytes written. */
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, length);
    }

    private void ensure(int more) {
        if (length + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(2 * buf.length, length + more));
        }
    }
}
