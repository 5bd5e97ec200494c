package io.cctflow.core.collect;

import java.util.Arrays;

/**
 * Open-addressing map from {@code long} to non-negative {@code int}, linear probing, no boxing.
 * Not thread-safe.
 */
public final class LongIntMap {
    private static final int EMPTY = -1;
    private long[] keys;
    private int[] values;
    private int size;
    private int mask;

    public LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        Arrays.fill(values, EMPTY);
        mask = cap - 1;
    }

    /** The value of {@code key}, or -1 when absent. */
    public int get(long key) {
        int i = slot(key);
        while (values[i] != EMPTY) {
            if (keys[i] == key) {
                return values[i];
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
        int i = slot(key);
        while (values[i] != EMPTY) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        if (++size * 2 > keys.length) {
            grow();
        }
    }

    public int size() {
        return size;
    }

    /** Removes every key, keeping the capacity: O(capacity), nothing allocated. */
    public void clear() {
        if (size > 0) {
            Arrays.fill(values, EMPTY);
            size = 0;
        }
    }

    private int slot(long key) {
        long h = key * 0x9E37_79B9_7F4A_7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        Arrays.fill(values, EMPTY);
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != EMPTY) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }
}
