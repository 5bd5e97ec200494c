package io.cctflow.core.diff;

import io.cctflow.core.Cct;

/**
 * Overlap and matching score (seed 000 Sect. 3.4 and 5.2).
 *
 * <p>pweight(n, T) is the weight of n over the sum of the weights of all nodes of T, where T is the
 * common tree of that side (what is left once topological differences are excised; seed 000 Figure
 * 5 annotates the common trees, and Sect. 5.2 notes overlap stays high when the common tree is
 * small). overlap = sum over matched pairs of min(pweight_1, pweight_2): in [0, 1], symmetric, 1
 * for a tree against itself. The virtual root is not a program node and carries no weight. Two
 * weightless sides overlap fully; one weightless side does not overlap at all.
 */
public final class Overlap {
    private Overlap() {}

    /** Overlap of the two sides of a common tree under one weight. */
    public static double of(CommonTree common, Weight weight) {
        int[] nodes = common.matchedInFirst();
        double[][] pw = pweights(common, nodes, weight);
        if (pw == null) {
            return bothEmpty(common, nodes, weight) ? 1.0 : 0.0;
        }
        double sum = 0;
        for (int k = 0; k < nodes.length; k++) {
            sum += Math.min(pw[0][k], pw[1][k]);
        }
        return Math.min(1.0, sum);
    }

    /**
     * Matching score, Sect. 5.2: product of the overlaps over {@code weights} times |CT|/|CCT1|
     * times |CT|/|CCT2|, times 100.
     */
    public static double score(CommonTree common, Weight... weights) {
        double product = 1.0;
        for (Weight w : weights) {
            product *= of(common, w);
        }
        return product * common.coverage() * 100.0;
    }

    /**
     * pweights of the matched nodes {@code nodes} (first tree) and their partners: [0][k] first
     * tree, [1][k] second; null if either side has no weight on its common tree.
     */
    static double[][] pweights(CommonTree common, int[] nodes, Weight weight) {
        Cct a = common.first();
        Cct b = common.second();
        long sumA = 0;
        long sumB = 0;
        for (int x : nodes) {
            sumA += weight.of(a, x);
            sumB += weight.of(b, common.partnerInSecond(x));
        }
        if (sumA == 0 || sumB == 0) {
            return null;
        }
        double[][] pw = new double[2][nodes.length];
        for (int k = 0; k < nodes.length; k++) {
            pw[0][k] = (double) weight.of(a, nodes[k]) / sumA;
            pw[1][k] = (double) weight.of(b, common.partnerInSecond(nodes[k])) / sumB;
        }
        return pw;
    }

    private static boolean bothEmpty(CommonTree common, int[] nodes, Weight weight) {
        long sumA = 0;
        long sumB = 0;
        for (int x : nodes) {
            sumA += weight.of(common.first(), x);
            sumB += weight.of(common.second(), common.partnerInSecond(x));
        }
        return sumA == 0 && sumB == 0;
    }
}
