package io.cctflow.core.metrics;

import io.cctflow.core.Cct;

/**
 * Callee time (seed 002 Eq. 3.8-3.12): for each method c called by m, the samples of the
 * invocations of c from m, out of m's method samples.
 *
 * <p>Invocation samples sum the total counts of the nodes of c whose parent is a node of m in
 * scope ({@code C_nodes(m, c)}), counting only those with no ancestor in {@code C_nodes(m, c)} so
 * that no sample is counted twice. Per sample: the samples whose stack has, at least once, a frame
 * of m in scope directly calling c. Under recursion the shares of different callees can add up to
 * more than 1 (a stack m, c, m, d counts for c and for d).
 */
public final class CalleeTime {
    private CalleeTime() {
    }

    /** O(nodes): one top-down pass. */
    public static Shares of(Scope scope, long methodId) {
        return of(scope, methodId, MethodTime.of(scope, methodId).methodSamples());
    }

    /** With the method's method samples already known, the denominator. */
    static Shares of(Scope scope, long methodId, long methodSamples) {
        Cct tree = scope.tree();
        int n = scope.nodes();
        // pairBelow[i]: i or one of its same-method ancestors is a callee node of methodId in scope;
        // same-method ancestors are the recursive-parent chain, which has lower indexes
        boolean[] pairBelow = new boolean[n];
        SampleTally callees = new SampleTally();
        for (int i = 1; i < n; i++) {
            int parent = tree.parent(i);
            boolean pair = parent != Cct.ROOT && tree.method(parent) == methodId && scope.contains(parent);
            int rp = tree.recursiveParent(i);
            boolean pairAbove = rp != Cct.NONE && pairBelow[rp];
            pairBelow[i] = pair || pairAbove;
            if (pair && !pairAbove) {
                callees.add(tree.method(i), tree.total(i));
            }
        }
        return callees.toShares(methodId, methodSamples);
    }
}
