package io.cctflow.core.metrics;

import io.cctflow.core.internal.LongIntMap;
import java.util.Arrays;

/** Samples summed per other method (callee or caller), keyed by method id without boxing. Not thread-safe. */
final class SampleTally {
    private final LongIntMap slots = new LongIntMap(16);
    private long[] methods = new long[16];
    private long[] samples = new long[16];
    private int count;

    void add(long method, long sampleCount) {
        int slot = slots.get(method);
        if (slot < 0) {
            if (count == methods.length) {
                methods = Arrays.copyOf(methods, count * 2);
                samples = Arrays.copyOf(samples, count * 2);
            }
            slot = count++;
            methods[slot] = method;
            slots.put(method, slot);
        }
        samples[slot] += sampleCount;
    }

    /** The shares of {@code method}, whose own method samples are {@code methodSamples}. */
    CallShares toShares(long method, long methodSamples) {
        return new CallShares(method, methodSamples, methods, samples, count);
    }
}
