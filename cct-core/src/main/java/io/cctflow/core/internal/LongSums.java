package io.cctflow.core.internal;

import io.cctflow.core.collect.LongIntMap;
import java.util.Arrays;

/**
 * Sums of {@code long} amounts per {@code long} key, without boxing: entries in the order their
 * keys were first added, each found again in O(1) ({@link LongIntMap}). Not thread-safe.
 */
public final class LongSums {
    private final LongIntMap slots;
    private long[] keys;
    private long[] sums;
    private int size;

    /** @param expected entries expected; the table grows beyond it */
    public LongSums(int expected) {
        int capacity = Math.max(1, expected);
        slots = new LongIntMap(capacity);
        keys = new long[capacity];
        sums = new long[capacity];
    }

    /** Adds {@code amount} to the sum of {@code key}, creating its entry on first use. */
    public void add(long key, long amount) {
        int slot = slots.get(key);
        if (slot < 0) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                sums = Arrays.copyOf(sums, size * 2);
            }
            slot = size++;
            keys[slot] = key;
            slots.put(key, slot);
        }
        sums[slot] += amount;
    }

    /** Number of entries (distinct keys added). */
    public int size() {
        return size;
    }

    /** Key of entry {@code e}, {@code 0 <= e < size()}. */
    public long key(int e) {
        return keys[e];
    }

    /** Sum of entry {@code e}, {@code 0 <= e < size()}. */
    public long sum(int e) {
        return sums[e];
    }

    /** Sum of {@code key}; 0 if it was never added. */
    public long get(long key) {
        int slot = slots.get(key);
        return slot < 0 ? 0 : sums[slot];
    }

    /** The keys, in entry order; the array is shared up to {@code size()}, not to be changed. */
    public long[] keys() {
        return keys;
    }

    /** The sums, in entry order; the array is shared up to {@code size()}, not to be changed. */
    public long[] sums() {
        return sums;
    }
}
