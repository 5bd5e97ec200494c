package io.cctflow.core.metrics;

import io.cctflow.core.Cct;

/**
 * Caller time (seed 002 Eq. 3.13-3.15): for each method p calling m, the samples of m reached
 * through a call from p ({@code sample_inv(p, m)}, Eq. 3.11), out of m's method samples.
 *
 * <p>Counts the nodes of m in scope whose parent has method p, skipping those with an ancestor
 * that is also such a node, so no sample is counted twice for the same caller. Per sample: the
 * samples whose stack has, at least once, p directly calling a frame of m in scope. The caller
 * node itself may be outside the scope (a task root's caller). Frames of m that are thread roots
 * have no caller and count for none. Eq. 3.15 writes the denominator as {@code sample_total(m)};
 * the text calls the result a share of method time, so the denominator is m's method samples.
 */
public final class CallerTime {
    private CallerTime() {
    }

    /**
     * One pass over the nodes, plus a walk up the recursive-parent chain of each node of m: O(nodes
     * + sum of the recursion depths of m's nodes).
     */
    public static Shares of(Scope scope, long methodId) {
        return of(scope, methodId, MethodTime.of(scope, methodId).methodSamples());
    }

    /** With the method's method samples already known, the denominator. */
    static Shares of(Scope scope, long methodId, long methodSamples) {
        Cct tree = scope.tree();
        int n = scope.nodes();
        SampleTally callers = new SampleTally();
        for (int i = 1; i < n; i++) {
            int parent = tree.parent(i);
            if (tree.method(i) != methodId || parent == Cct.ROOT || !scope.contains(i)) {
                continue;
            }
            long caller = tree.method(parent);
            if (reachedFromCallerAbove(scope, i, caller)) {
                continue;
            }
            callers.add(caller, tree.total(i));
        }
        return callers.toShares(methodId, methodSamples);
    }

    /** Whether a same-method ancestor of {@code node} in scope is called from {@code caller}. */
    private static boolean reachedFromCallerAbove(Scope scope, int node, long caller) {
        Cct tree = scope.tree();
        // the scope is closed downwards: once an ancestor is outside, all higher ones are too
        for (int a = tree.recursiveParent(node); a != Cct.NONE && scope.contains(a); a = tree.recursiveParent(a)) {
            int p = tree.parent(a);
            if (p != Cct.ROOT && tree.method(p) == caller) {
                return true;
            }
        }
        return false;
    }
}
