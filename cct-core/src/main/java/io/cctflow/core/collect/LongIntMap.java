package io.cctflow.core.collect;

import java.util.Arrays;

/**
 * Open-addressing map from {@code long} to non-negative {@code int}, linear probing, no boxing.
 * Each slot's key and value sit side by side in one {@code long[]} (key at {@code 2i}, value + 1 at
 * {@code 2i + 1}, 0 for a free slot), so a probe touches one cache line where separate key and
 * value arrays cost two misses: in the merge operator's trees the lookups are a quarter of its
 * thread. Not thread-safe.
 */
public final class LongIntMap {
    private static final int EMPTY = -1;
    /** Keys at even indices, value + 1 at odd ones (0: free slot, so a new array needs no fill). */
    private long[] slots;
    private int size;
    /** Slots - 1: a slot's number from a hash. */
    private int mask;

    public LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        slots = new long[2 * cap];
        mask = cap - 1;
    }

    /** The value of {@code key}, or -1 when absent. */
    public int get(long key) {
        long[] s = slots;
        int i = slot(key);
        long v;
        while ((v = s[2 * i + 1]) != 0) {
            if (s[2 * i] == key) {
                return (int) v - 1;
            }
            i = (i + 1) & mask;
        }
        return EMPTY;
    }

    /** Sets {@code key} to {@code value} (must be &gt;= 0). */
    public void put(long key, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("value must be >= 0: " + value);
        }
        long[] s = slots;
        int i = slot(key);
        while (s[2 * i + 1] != 0) {
            if (s[2 * i] == key) {
                s[2 * i + 1] = value + 1L;
                return;
            }
            i = (i + 1) & mask;
        }
        s[2 * i] = key;
        s[2 * i + 1] = value + 1L;
        if (++size * 2 > mask + 1) {
            grow();
        }
    }

    public int size() {
        return size;
    }

    /** Removes every key, keeping the capacity: O(capacity), nothing allocated. */
    public void clear() {
        if (size > 0) {
            Arrays.fill(slots, 0L);
            size = 0;
        }
    }

    private int slot(long key) {
        long h = key * 0x9E37_79B9_7F4A_7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        mask = old.length - 1;
        size = 0;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i + 1] != 0) {
                put(old[i], (int) old[i + 1] - 1);
            }
        }
    }
}
