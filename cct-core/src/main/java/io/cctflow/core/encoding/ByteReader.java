package io.cctflow.core.encoding;

/**
 * Reads what a {@link ByteWriter} wrote from a byte array, refusing anything cut off or too long
 * with the exception the format's owner chooses ({@link Damage}), so a damaged stored value is an
 * error that names its format, never a wrong value or a huge allocation. Formats with sections of
 * their own (bit-packed keys, say) read them from {@link #bytes()} at {@link #position()} and move
 * on with {@link #position(int)}.
 *
 * <p>Not thread-safe.
 */
public final class ByteReader {
    /** Makes the exception for damage found at {@code position} of {@code length} bytes. */
    @FunctionalInterface
    public interface Damage {
        RuntimeException at(int position, int length, String what);
    }

    private final byte[] buf;
    private final Damage damage;
    private int position;

    public ByteReader(byte[] bytes, Damage damage) {
        this.buf = bytes;
        this.damage = damage;
    }

    /** An unsigned varint of up to 64 bits (at most 10 bytes). */
    public long varint() {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (position >= buf.length) {
                throw damaged("cut off");
            }
            byte b = buf[position++];
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw damaged("a value longer than 10 bytes");
    }

    /** What {@link ByteWriter#varint32} wrote: all 32 bits (at most 5 bytes), so the result may be negative. */
    public int varint32() {
        int value = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (position >= buf.length) {
                throw damaged("cut off");
            }
            byte b = buf[position++];
            value |= (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw damaged("a value longer than 5 bytes");
    }

    /** What {@link ByteWriter#longBigEndian} wrote. */
    public long longBigEndian() {
        if (position + Long.BYTES > buf.length) {
            throw damaged("cut off");
        }
        long value = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            value = (value << 8) | (buf[position++] & 0xFF);
        }
        return value;
    }

    /** The next {@code n} bytes' offset in {@link #bytes()}, skipped over; damage if fewer are left. */
    public int skip(int n) {
        if (n < 0 || n > buf.length - position) {
            throw damaged("cut off");
        }
        int at = position;
        position += n;
        return at;
    }

    /** The whole array read from (not a copy). */
    public byte[] bytes() {
        return buf;
    }

    public int position() {
        return position;
    }

    public void position(int position) {
        this.position = position;
    }

    public int remaining() {
        return buf.length - position;
    }

    /** The owner's exception for damage {@code what} at the current position. */
    public RuntimeException damaged(String what) {
        return damage.at(position, buf.length, what);
    }
}
