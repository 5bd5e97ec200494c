package io.cctflow.core.metrics;

import io.cctflow.core.Cct;
import java.util.function.LongPredicate;

/**
 * Method and self samples of a method (or a set of methods, e.g. overloads) within a scope,
 * seed 002 Eq. 3.3-3.7 and, for a task scope, Eq. 3.23 and 3.25.
 *
 * <p>Method samples are the total counts summed over the recursion-free nodes in scope: the nodes
 * of the set in scope with no ancestor in scope in the set (Eq. 3.4-3.5 on {@code N_t}, Eq. 3.23).
 * Per sample: the samples with a frame of the set inside the scope. Self samples are the self
 * counts of the set's nodes in scope.
 *
 * @param methodSamples samples with a frame of the method in scope (Eq. 3.5)
 * @param selfSamples samples whose leaf frame is the method, in scope (numerator of Eq. 3.7)
 * @param scopeSamples samples through the scope's roots (denominator of Eq. 3.6 / 3.25)
 */
public record MethodTime(long methodSamples, long selfSamples, long scopeSamples) {

    /** Method time (Eq. 3.6, 3.25): methodSamples / scopeSamples; 0 for an empty scope. */
    public double methodTime() {
        return scopeSamples == 0 ? 0.0 : (double) methodSamples / scopeSamples;
    }

    /**
     * Self time as the thesis defines it (Eq. 3.7): the share of the method's own time spent in its
     * own statements, selfSamples / methodSamples; 0 when the method has no samples.
     */
    public double selfTime() {
        return methodSamples == 0 ? 0.0 : (double) selfSamples / methodSamples;
    }

    /** Two passes over the scope's nodes. */
    public static MethodTime of(Scope scope, LongPredicate isMethod) {
        Cct tree = scope.tree();
        boolean[] under = nodesUnder(scope, isMethod);
        long method = 0;
        long self = 0;
        for (int i = 1; i < under.length; i++) {
            if (under[i] && !under[tree.parent(i)]) {
                method += tree.total(i); // a recursion-free node of the set
            }
            if (under[i] && scope.contains(i) && isMethod.test(tree.method(i))) {
                self += tree.self(i);
            }
        }
        return new MethodTime(method, self, scope.rootSamples());
    }

    /**
     * Per node: whether it or an ancestor is a node of the set in scope. The highest such nodes are
     * the recursion-free nodes (Eq. 3.4), and a sample has a frame of the set in scope exactly when
     * its leaf is marked. One top-down pass.
     */
    static boolean[] nodesUnder(Scope scope, LongPredicate isMethod) {
        Cct tree = scope.tree();
        boolean[] under = new boolean[scope.nodes()];
        for (int i = 1; i < under.length; i++) {
            under[i] = under[tree.parent(i)] || (scope.contains(i) && isMethod.test(tree.method(i)));
        }
        return under;
    }

    /** {@link #of(Scope, LongPredicate)} for one method id. */
    public static MethodTime of(Scope scope, long methodId) {
        return of(scope, id -> id == methodId);
    }
}
