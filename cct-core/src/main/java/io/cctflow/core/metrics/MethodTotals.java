package io.cctflow.core.metrics;

import io.cctflow.core.Cct;
import io.cctflow.core.collect.LongIntMap;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Method and self samples of every method in a scope at once (seed 002 Eq. 3.5 and the numerator
 * of Eq. 3.7), equal to {@link MethodTime#of(Scope, long)} per method but in one pass: a node in
 * scope is recursion-free when its nearest ancestor of the same method ({@link Cct#recursiveParent})
 * is outside the scope or absent, since a scope is closed downwards. For "top methods" tables.
 * Immutable after construction; thread-safe.
 */
public final class MethodTotals {
    private final long[] methodIds;
    private final long[] methodSamples;
    private final long[] selfSamples;
    private final long scopeSamples;

    private MethodTotals(long[] methodIds, long[] methodSamples, long[] selfSamples, long scopeSamples) {
        this.methodIds = methodIds;
        this.methodSamples = methodSamples;
        this.selfSamples = selfSamples;
        this.scopeSamples = scopeSamples;
    }

    /** One pass over the scope's nodes. */
    public static MethodTotals of(Scope scope) {
        Cct tree = scope.tree();
        LongIntMap index = new LongIntMap(64);
        long[] ids = new long[16];
        long[] method = new long[16];
        long[] self = new long[16];
        int count = 0;
        for (int i = 1; i < scope.nodes(); i++) {
            if (!scope.contains(i)) {
                continue;
            }
            long m = tree.method(i);
            int k = index.get(m);
            if (k < 0) {
                if (count == ids.length) {
                    ids = Arrays.copyOf(ids, count * 2);
                    method = Arrays.copyOf(method, count * 2);
                    self = Arrays.copyOf(self, count * 2);
                }
                k = count++;
                index.put(m, k);
                ids[k] = m;
            }
            self[k] += tree.self(i);
            int rp = tree.recursiveParent(i);
            if (rp == Cct.NONE || !scope.contains(rp)) {
                method[k] += tree.total(i);
            }
        }
        return new MethodTotals(Arrays.copyOf(ids, count), Arrays.copyOf(method, count), Arrays.copyOf(self, count),
                scope.rootSamples());
    }

    /** Methods with a node in scope. */
    public int size() {
        return methodIds.length;
    }

    public long methodId(int k) {
        return methodIds[k];
    }

    /** Samples with a frame of the method in scope (Eq. 3.5). */
    public long methodSamples(int k) {
        return methodSamples[k];
    }

    /** Samples whose leaf frame is the method, in scope. */
    public long selfSamples(int k) {
        return selfSamples[k];
    }

    /** Samples through the scope's roots: the denominator of method time. */
    public long scopeSamples() {
        return scopeSamples;
    }

    /**
     * Positions of the {@code n} largest methods by self samples ({@code bySelf}) or by method
     * samples, largest first; ties by the other count, then by method id, so the order is stable.
     */
    public int[] top(int n, boolean bySelf) {
        long[] first = bySelf ? selfSamples : methodSamples;
        long[] second = bySelf ? methodSamples : selfSamples;
        Integer[] order = new Integer[methodIds.length];
        for (int k = 0; k < order.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, Comparator.<Integer>comparingLong(k -> -first[k]).thenComparingLong(k -> -second[k])
                .thenComparingLong(k -> methodIds[k]));
        int keep = Math.min(n, order.length);
        int[] out = new int[keep];
        for (int k = 0; k < keep; k++) {
            out[k] = order[k];
        }
        return out;
    }
}
