package io.cctflow.core.metrics;

import java.util.Arrays;

/**
 * The callees (or callers) of one method with their invocation samples, each "x out of y
 * samples" where y is the method's method samples in the scope. Ordered by samples, descending,
 * then method id. Immutable.
 */
public final class CallShares {
    private final long method;
    private final long methodSamples;
    private final long[] others;
    private final long[] samples;

    CallShares(long method, long methodSamples, long[] others, long[] samples, int count) {
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> samples[a] != samples[b]
                ? Long.compare(samples[b], samples[a]) : Long.compare(others[a], others[b]));
        this.method = method;
        this.methodSamples = methodSamples;
        this.others = new long[count];
        this.samples = new long[count];
        for (int i = 0; i < count; i++) {
            this.others[i] = others[order[i]];
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

    /** Number of callees (callers). */
    public int size() {
        return others.length;
    }

    /** The i-th callee (caller) method id. */
    public long other(int i) {
        return others[i];
    }

    /** Invocation samples of the i-th callee (caller), Eq. 3.11. */
    public long samples(int i) {
        return samples[i];
    }

    /** samples(i) / methodSamples(); 0 when the method has no samples. */
    public double share(int i) {
        return methodSamples == 0 ? 0.0 : (double) samples[i] / methodSamples;
    }

    /** Invocation samples of a callee (caller) method, 0 if it is none. */
    public long samplesOf(long otherMethod) {
        for (int i = 0; i < others.length; i++) {
            if (others[i] == otherMethod) {
                return samples[i];
            }
        }
        return 0;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("CallShares[").append(Long.toHexString(method)).append(" of ")
                .append(methodSamples).append(':');
        for (int i = 0; i < others.length; i++) {
            s.append(' ').append(Long.toHexString(others[i])).append('=').append(samples[i]);
        }
        return s.append(']').toString();
    }
}
