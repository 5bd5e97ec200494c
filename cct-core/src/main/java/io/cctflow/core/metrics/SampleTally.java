package io.cctflow.core.metrics;

import io.cctflow.core.internal.LongSums;

/** Samples summed per key (a callee, caller or thread), without boxing. Not thread-safe. */
final class SampleTally {
    private final LongSums sums = new LongSums(16);

    void add(long key, long sampleCount) {
        sums.add(key, sampleCount);
    }

    /** The shares of {@code method}, whose own method samples are {@code methodSamples}. */
    Shares toShares(long method, long methodSamples) {
        return new Shares(method, methodSamples, sums.keys(), sums.sums(), sums.size());
    }
}
