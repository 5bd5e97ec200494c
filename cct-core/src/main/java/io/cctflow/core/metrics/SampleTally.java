package io.cctflow.core.metrics;

import io.cctflow.core.internal.LongIntMap;
import java.util.Arrays;

/** Samples summed per key (a callee, caller or thread), without boxing. Not thread-safe. */
final class SampleTally {
    private final LongIntMap slots = new LongIntMap(16);
    private long[] keys = new long[16];
    private long[] samples = new long[16];
    private int count;

    void add(long key, long sampleCount) {
        int slot = slots.get(key);
        if (slot < 0) {
            if (count == keys.length) {
                keys = Arrays.copyOf(keys, count * 2);
                samples = Arrays.copyOf(samples, count * 2);
            }
            slot = count++;
            keys[slot] = key;
            slots.put(key, slot);
        }
        samples[slot] += sampleCount;
    }

    /** The shares of {@code method}, whose own method samples are {@code methodSamples}. */
    Shares toShares(long method, long methodSamples) {
        return new Shares(method, methodSamples, keys, samples, count);
    }
}
