package io.cctflow.core;

import java.util.function.LongPredicate;

/**
 * Method and self samples of a method (or a set of methods, e.g. all overloads) on a CCT, seed 002
 * Eq. 3.1-3.6.
 *
 * <p>Method samples count each sample once even when the method is on its stack several times
 * (recursion): they are the sum of total counts over the <em>recursion-free</em> nodes of the
 * method set, the nodes without an ancestor in the set. Equivalently: the number of samples whose
 * stack contains a method of the set. Self samples are the sum of self counts over the set's
 * nodes. Both come with the tree's total so every share can be shown as "x out of y samples".
 *
 * @param methodSamples samples whose stack contains the method
 * @param selfSamples samples whose leaf frame is the method
 * @param totalSamples all samples of the tree
 */
public record MethodMetrics(long methodSamples, long selfSamples, long totalSamples) {

    /** Method time: share of samples whose stack contains the method; 0 for an empty tree. */
    public double methodTime() {
        return share(methodSamples);
    }

    /** Self time: share of samples whose leaf is the method; 0 for an empty tree. */
    public double selfTime() {
        return share(selfSamples);
    }

    private double share(long samples) {
        return totalSamples == 0 ? 0.0 : (double) samples / totalSamples;
    }

    /** Computes the metrics of the methods accepted by {@code isMethod} in one pass over the tree. */
    public static MethodMetrics of(Cct tree, LongPredicate isMethod) {
        int n = tree.size();
        // underSet[i]: node i or one of its ancestors belongs to the set
        boolean[] underSet = new boolean[n];
        long method = 0;
        long self = 0;
        for (int i = 1; i < n; i++) {
            boolean matches = isMethod.test(tree.method(i));
            boolean ancestorMatches = underSet[tree.parent(i)];
            underSet[i] = matches || ancestorMatches;
            if (matches) {
                self += tree.self(i);
                if (!ancestorMatches) {
                    method += tree.total(i);
                }
            }
        }
        return new MethodMetrics(method, self, tree.total(Cct.ROOT));
    }
}
