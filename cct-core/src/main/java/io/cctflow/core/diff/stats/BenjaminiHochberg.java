package io.cctflow.core.diff.stats;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Benjamini-Hochberg q-values: rejecting every hypothesis whose q-value is at most {@code a}
 * keeps the expected share of false rejections among the rejections at most {@code a} (for
 * independent or positively dependent tests). Hypotheses marked untestable (their smallest
 * possible p-value is above every level of interest) are left out of the count {@code m} and get
 * q = 1. Stateless.
 */
public final class BenjaminiHochberg {
    private BenjaminiHochberg() {
    }

    /**
     * @param p p-values
     * @param testable per hypothesis, whether it counts; null for all
     * @return q-values, index for index: min over j &gt;= rank of {@code m p_(j) / j}, at most 1
     */
    public static double[] qValues(double[] p, boolean[] testable) {
        int n = p.length;
        double[] q = new double[n];
        Arrays.fill(q, 1.0);
        Integer[] order = new Integer[n];
        int m = 0;
        for (int i = 0; i < n; i++) {
            if (testable == null || testable[i]) {
                order[m++] = i;
            }
        }
        Arrays.sort(order, 0, m, Comparator.comparingDouble((Integer i) -> p[i]));
        double running = 1.0;
        for (int r = m; r >= 1; r--) {
            int i = order[r - 1];
            running = Math.min(running, p[i] * m / r);
            q[i] = running;
        }
        return q;
    }
}
