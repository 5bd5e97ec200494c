package io.cctflow.flink.ingest;

import io.cctflow.core.ClassNames;
import io.cctflow.core.Hashing;
import io.cctflow.core.MethodNames;
import io.cctflow.core.collect.LongIntMap;
import io.cctflow.model.MethodRecord;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Method dictionary entries of sample batches as they arrive (class, method and descriptor as
 * UTF-8 bytes) to their {@link MethodRecord}s: names normalised ({@link ClassNames#normalise},
 * {@link MethodNames#normalise}) and the method id computed once per distinct entry, not once per
 * batch. Every batch repeats the dictionary entries of the methods its stacks use, so after the
 * first batches an entry costs a hash of its bytes and one lookup: no string is decoded. Keyed by
 * the entry's exact bytes as the record encodes them (a 64-bit hash, then the bytes compared), so a
 * result is what computing it anew would give.
 *
 * <p>Bounded: when it holds {@code maxEntries} entries, or its entries' bytes would pass {@value
 * #MAX_BYTES} (batches with long names, even hostile ones, cannot grow it beyond that), it is
 * emptied and fills again; an entry longer than that is not kept. Not thread-safe (one per
 * operator instance).
 */
public final class MethodDictionary {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Bytes of the entries kept at most. */
    static final int MAX_BYTES = 64 << 20;

    private final int maxEntries;
    private final int maxBytes;
    private int bytesHeld;
    private LongIntMap slots;
    private final List<byte[]> keys = new ArrayList<>();
    private final List<MethodRecord> records = new ArrayList<>();

    /** @param maxEntries entries kept before the dictionary is emptied (at least 1) */
    public MethodDictionary(int maxEntries) {
        this(maxEntries, MAX_BYTES);
    }

    /** As above, emptied also before its entries' bytes would pass {@code maxBytes} (tests). */
    MethodDictionary(int maxEntries, int maxBytes) {
        if (maxEntries < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("maxEntries and maxBytes must be >= 1: " + maxEntries + ", " + maxBytes);
        }
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
        this.slots = new LongIntMap(1024);
    }

    /**
     * The record of a dictionary entry given as its Avro encoding, {@code buf[from, to)}: the class,
     * method and descriptor, each a zigzag varint length and its UTF-8 bytes; {@code strings} holds
     * each string's offset in {@code buf} and length ({offset, length} three times). Nothing of
     * {@code buf} is kept: the caller may reuse it.
     */
    public MethodRecord record(byte[] buf, int from, int to, int[] strings) {
        long hash = hash(buf, from, to);
        int slot = slots.get(hash);
        if (slot >= 0) {
            byte[] key = keys.get(slot);
            if (Arrays.equals(key, 0, key.length, buf, from, to)) {
                return records.get(slot);
            }
        }
        MethodRecord record = normalised(string(buf, strings, 0), string(buf, strings, 1), string(buf, strings, 2));
        // kept unless its hash is taken by other bytes (never seen in practice) or it is longer than the bound
        if (slot < 0 && to - from <= maxBytes) {
            keep(hash, Arrays.copyOfRange(buf, from, to), record);
        }
        return record;
    }

    /** The record of a dictionary entry given as strings (batches decoded by Avro's generated classes). */
    public MethodRecord record(CharSequence className, CharSequence methodName, CharSequence descriptor) {
        byte[][] parts = {utf8(className), utf8(methodName), utf8(descriptor)};
        byte[] encoded = new byte[3 * 5 + parts[0].length + parts[1].length + parts[2].length];
        int[] strings = new int[6];
        int at = 0;
        for (int i = 0; i < 3; i++) {
            at = writeVarint(encoded, at, parts[i].length);
            strings[2 * i] = at;
            strings[2 * i + 1] = parts[i].length;
            System.arraycopy(parts[i], 0, encoded, at, parts[i].length);
            at += parts[i].length;
        }
        return record(encoded, 0, at, strings);
    }

    private static byte[] utf8(CharSequence s) {
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Avro's encoding of an int (zigzag, then 7 bits a byte, low first) at {@code at}; returns the end. */
    private static int writeVarint(byte[] into, int at, int value) {
        int n = (value << 1) ^ (value >> 31);
        while ((n & ~0x7f) != 0) {
            into[at++] = (byte) ((n & 0x7f) | 0x80);
            n >>>= 7;
        }
        into[at++] = (byte) n;
        return at;
    }

    private static String string(byte[] buf, int[] strings, int i) {
        return new String(buf, strings[2 * i], strings[2 * i + 1], StandardCharsets.UTF_8);
    }

    /** Entries held. */
    public int size() {
        return records.size();
    }

    private static MethodRecord normalised(String className, String methodName, String descriptor) {
        return MethodRecord.of(ClassNames.normalise(className), MethodNames.normalise(methodName), descriptor);
    }

    private void keep(long hash, byte[] key, MethodRecord record) {
        if (records.size() >= maxEntries || bytesHeld + key.length > maxBytes) {
            slots = new LongIntMap(1024);
            keys.clear();
            records.clear();
            bytesHeld = 0;
        }
        bytesHeld += key.length;
        slots.put(hash, records.size());
        keys.add(key);
        records.add(record);
    }

    /**
     * A 64-bit hash of the entry's bytes, sixteen at a time in two independent chains (multiply and
     * rotate, so each waits only on its own last step; finished with MurmurHash3's mixer): a cache key
     * checked byte for byte on a hit, so it need only be fast and well spread, not stable.
     */
    private static long hash(byte[] b, int from, int to) {
        long h = 0x9E37_79B9_7F4A_7C15L;
        long g = 0x6A09_E667_F3BC_C909L;
        int i = from;
        for (; i + 2 * Long.BYTES <= to; i += 2 * Long.BYTES) {
            h = Long.rotateLeft(h ^ ((long) LONGS.get(b, i) * 0xC2B2_AE3D_27D4_EB4FL), 29) * 0x1656_67B1_9E37_79F9L;
            g = Long.rotateLeft(g ^ ((long) LONGS.get(b, i + Long.BYTES) * 0xC2B2_AE3D_27D4_EB4FL), 29)
                    * 0x1656_67B1_9E37_79F9L;
        }
        if (i + Long.BYTES <= to) {
            h = Long.rotateLeft(h ^ ((long) LONGS.get(b, i) * 0xC2B2_AE3D_27D4_EB4FL), 29) * 0x1656_67B1_9E37_79F9L;
            i += Long.BYTES;
        }
        long tail = to - from;
        for (; i < to; i++) {
            tail = (tail << 8) | (b[i] & 0xff);
        }
        h ^= Long.rotateLeft(g, 31);
        return Hashing.fmix64(Long.rotateLeft(h ^ (tail * 0xC2B2_AE3D_27D4_EB4FL), 29) * 0x1656_67B1_9E37_79F9L);
    }
}
