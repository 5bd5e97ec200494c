package io.cctflow.core.metrics;

import io.cctflow.core.Cct;
import java.util.function.LongPredicate;

/**
 * Thread time (seed 002 Eq. 3.20-3.22): for each thread t that ran m ({@code T(m)}, Eq. 3.21), the
 * method samples of m on t, {@code sample_method(m, t)}, out of m's method samples. Keys of the
 * result are thread ids of the tree ({@link Cct#threadName(int)} names them).
 *
 * <p>{@code sample_method(m, t)} sums the thread's totals over m's recursion-free nodes in scope
 * (Eq. 3.20); since a thread's total is its self counts summed over the subtree (Eq. 3.19), that
 * is the thread's self counts of every node at or below a recursion-free node. Per sample: the
 * samples of t with a frame of m in scope. The shares add up to 1 when every sample was merged
 * with its thread (Eq. 3.16); counts added without one ({@link Cct#addCounts}) make them add up to
 * less.
 */
public final class ThreadTime {
    private ThreadTime() {
    }

    /** O(nodes + per-thread entries). */
    public static Shares of(Scope scope, long methodId) {
        return of(scope, methodId, MethodTime.of(scope, methodId).methodSamples());
    }

    /** With the method's method samples already known, the denominator. */
    static Shares of(Scope scope, long methodId, long methodSamples) {
        LongPredicate isMethod = id -> id == methodId;
        Cct tree = scope.tree();
        boolean[] under = MethodTime.nodesUnder(scope, isMethod);
        SampleTally threads = new SampleTally();
        for (int e = 0; e < tree.threadEntries(); e++) {
            int node = tree.threadEntryNode(e);
            if (node < under.length && under[node]) {
                threads.add(tree.threadEntryThread(e), tree.threadEntrySelf(e));
            }
        }
        return threads.toShares(methodId, methodSamples);
    }
}
