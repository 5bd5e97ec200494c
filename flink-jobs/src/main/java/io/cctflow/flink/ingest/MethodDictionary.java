package io.cctflow.flink.ingest;

import io.cctflow.core.ClassNames;
import io.cctflow.core.Hashing;
import io.cctflow.core.MethodNames;
import io.cctflow.core.collect.LongIntMap;
import io.cctflow.model.MethodRecord;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.util.Utf8;

/**
 * Method dictionary entries of sample batches as they arrive (class, method and descriptor as
 * UTF-8 bytes) to their {@link MethodRecord}s: names normalised ({@link ClassNames#normalise},
 * {@link MethodNames#normalise}) and the method id computed once per distinct entry, not once per
 * batch. Every batch repeats the dictionary entries of the methods its stacks use, so after the
 * first batches an entry costs a hash of its bytes and one lookup: no string is decoded. Keyed by
 * the exact bytes (a 64-bit hash, then the bytes compared), so a result is what computing it anew
 * would give.
 *
 * <p>Bounded: when it holds {@code maxEntries} entries it is emptied and fills again. Not
 * thread-safe (one per operator instance).
 */
public final class MethodDictionary {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private final int maxEntries;
    private LongIntMap slots;
    private final List<byte[]> keys = new ArrayList<>();
    private final List<MethodRecord> records = new ArrayList<>();

    /** @param maxEntries entries kept before the dictionary is emptied (at least 1) */
    public MethodDictionary(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be >= 1: " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.slots = new LongIntMap(1024);
    }

    /** The record of a dictionary entry given as Avro's UTF-8 strings (not kept: may be reused by the caller). */
    public MethodRecord record(Utf8 className, Utf8 methodName, Utf8 descriptor) {
        long hash = hash(className, methodName, descriptor);
        int slot = slots.get(hash);
        if (slot >= 0 && sameKey(keys.get(slot), className, methodName, descriptor)) {
            return records.get(slot);
        }
        MethodRecord record = normalised(className.toString(), methodName.toString(), descriptor.toString());
        if (slot < 0) {
            // a hash taken by other bytes (never seen in practice) is simply not cached
            keep(hash, key(className, methodName, descriptor), record);
        }
        return record;
    }

    /** The record of a dictionary entry given as strings (batches decoded by Avro's generated classes). */
    public MethodRecord record(CharSequence className, CharSequence methodName, CharSequence descriptor) {
        return record(new Utf8(className.toString()), new Utf8(methodName.toString()), new Utf8(descriptor.toString()));
    }

    /** Entries held. */
    public int size() {
        return records.size();
    }

    private static MethodRecord normalised(String className, String methodName, String descriptor) {
        return MethodRecord.of(ClassNames.normalise(className), MethodNames.normalise(methodName), descriptor);
    }

    private void keep(long hash, byte[] key, MethodRecord record) {
        if (records.size() >= maxEntries) {
            slots = new LongIntMap(1024);
            keys.clear();
            records.clear();
        }
        slots.put(hash, records.size());
        keys.add(key);
        records.add(record);
    }

    /**
     * A 64-bit hash of the three byte strings and their lengths, eight bytes per step (multiply and
     * rotate, finished with MurmurHash3's mixer): a cache key checked byte for byte on a hit, so it
     * need only be fast and well spread, not stable.
     */
    private static long hash(Utf8 className, Utf8 methodName, Utf8 descriptor) {
        return Hashing.fmix64(hash(hash(hash(0x9E37_79B9_7F4A_7C15L, className), methodName), descriptor));
    }

    private static long hash(long h, Utf8 part) {
        byte[] b = part.getBytes();
        int n = part.getByteLength();
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            h = Long.rotateLeft(h ^ ((long) LONGS.get(b, i) * 0xC2B2_AE3D_27D4_EB4FL), 29) * 0x1656_67B1_9E37_79F9L;
        }
        long tail = n;
        for (; i < n; i++) {
            tail = (tail << 8) | (b[i] & 0xff);
        }
        return Long.rotateLeft(h ^ (tail * 0xC2B2_AE3D_27D4_EB4FL), 29) * 0x1656_67B1_9E37_79F9L;
    }

    /** The three byte strings, each after its length (4 bytes). */
    private static byte[] key(Utf8... parts) {
        int length = 0;
        for (Utf8 part : parts) {
            length += 4 + part.getByteLength();
        }
        byte[] key = new byte[length];
        int at = 0;
        for (Utf8 part : parts) {
            int n = part.getByteLength();
            key[at++] = (byte) (n >>> 24);
            key[at++] = (byte) (n >>> 16);
            key[at++] = (byte) (n >>> 8);
            key[at++] = (byte) n;
            System.arraycopy(part.getBytes(), 0, key, at, n);
            at += n;
        }
        return key;
    }

    private static boolean sameKey(byte[] key, Utf8 className, Utf8 methodName, Utf8 descriptor) {
        int at = matched(key, 0, className);
        at = at < 0 ? at : matched(key, at, methodName);
        at = at < 0 ? at : matched(key, at, descriptor);
        return at == key.length;
    }

    /** Where {@code key} goes on after {@code part} if it holds {@code part} at {@code at}, else -1. */
    private static int matched(byte[] key, int at, Utf8 part) {
        int n = part.getByteLength();
        if (at + 4 + n > key.length
                || ((key[at] & 0xff) << 24 | (key[at + 1] & 0xff) << 16 | (key[at + 2] & 0xff) << 8 | (key[at + 3] & 0xff)) != n
                || !Arrays.equals(key, at + 4, at + 4 + n, part.getBytes(), 0, n)) {
            return -1;
        }
        return at + 4 + n;
    }
}
