package io.cctflow.core.metrics;

import java.util.Arrays;

/**
 * One method's method samples split by callee (Eq. 3.12), caller (Eq. 3.15) or thread (Eq. 3.22):
 * per key (a callee or caller method id, or a thread id of the tree) its samples, each "x out of y
 * samples" where y is the method's method samples in the scope. Ordered by samples, descending,
 * then key. Immutable.
 */
public final class Shares {
    private final long method;
    private final long methodSamples;
    private final long[] keys;
    private final long[] samples;

    Shares(long method, long methodSamples, long[] keys, long[] samples, int count) {
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> samples[a] != samples[b]
                ? Long.compare(samples[b], samples[a]) : Long.compare(keys[a], keys[b]));
        this.method = method;
        this.methodSamples = methodSamples;
        this.keys = new long[count];
        this.samples = new long[count];
        for (int i = 0; i < count; i++) {
            this.keys[i] = keys[order[i]];
            this.samples[i] = samples[order[i]];
        }
    }

    /** The method the shares are of. */
    public long method() {
        return method;
    }

    /** The denominator: method samples of {@link #method()} in the scope (Eq. 3.12, 3.15). */
    public long methodSamples() {
        return methodSamples;
    }

    /** Number of keys (callees, callers or threads). */
    public int size() {
        return keys.length;
    }

    /** The i-th key: a callee or caller method id, or a thread id. */
    public long key(int i) {
        return keys[i];
    }

    /** Samples of the i-th key: invocation samples (Eq. 3.11) or thread samples (Eq. 3.20). */
    public long samples(int i) {
        return samples[i];
    }

    /** samples(i) / methodSamples(); 0 when the method has no samples. */
    public double share(int i) {
        return methodSamples == 0 ? 0.0 : (double) samples[i] / methodSamples;
    }

    /** Samples of a key, 0 if it has none. */
    public long samplesOf(long key) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] == key) {
                return samples[i];
            }
        }
        return 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Shares other && method == other.method && methodSamples == other.methodSamples
                && Arrays.equals(keys, other.keys) && Arrays.equals(samples, other.samples);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(method) + Long.hashCode(methodSamples)) + Arrays.hashCode(samples);
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("Shares[").append(Long.toHexString(method)).append(" of ")
                .append(methodSamples).append(':');
        for (int i = 0; i < keys.length; i++) {
            s.append(' ').append(Long.toHexString(keys[i])).append('=').append(samples[i]);
        }
        return s.append(']').toString();
    }
}
