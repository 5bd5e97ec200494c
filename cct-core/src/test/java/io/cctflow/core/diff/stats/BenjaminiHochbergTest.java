package io.cctflow.core.diff.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BenjaminiHochbergTest {
    @Test
    void rejectsWhatTheStepUpRuleRejects() {
        Random random = new Random(3);
        for (int t = 0; t < 500; t++) {
            int n = 1 + random.nextInt(40);
            double[] p = new double[n];
            boolean[] testable = new boolean[n];
            for (int i = 0; i < n; i++) {
                p[i] = random.nextBoolean() ? random.nextDouble() * 0.01 : random.nextDouble();
                testable[i] = random.nextInt(5) > 0;
            }
            double level = 0.05;
            double[] q = BenjaminiHochberg.qValues(p, testable);
            // the rule itself: the largest r with p_(r) <= r a / m; reject the r smallest
            double[] sorted = new double[n];
            int m = 0;
            for (int i = 0; i < n; i++) {
                if (testable[i]) {
                    sorted[m++] = p[i];
                }
            }
            Arrays.sort(sorted, 0, m);
            double cut = -1;
            for (int r = m; r >= 1; r--) {
                if (sorted[r - 1] <= r * level / m) {
                    cut = sorted[r - 1];
                    break;
                }
            }
            for (int i = 0; i < n; i++) {
                boolean expected = testable[i] && p[i] <= cut;
                assertEquals(expected, q[i] <= level, "trial " + t + " hypothesis " + i);
            }
        }
    }
}
