package io.cctflow.core.diff.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class ExpressionFilterTest {
    @Test
    void aShareOfAFewSamplesAWindowIsNotTested() {
        // the CI case: a JFR housekeeping thread's 7 samples in side a's five windows, none in b's four
        ExpressionFilter f = new ExpressionFilter(new long[] {450, 450, 450, 450, 441}, new long[] {530, 535, 535, 535});
        assertFalse(f.tested(new long[] {2, 1, 2, 1, 1}, new long[4]));
        // ... and the methods above it, on all but those samples, are judged by what misses them
        assertFalse(f.tested(new long[] {448, 449, 448, 449, 440}, new long[] {530, 535, 535, 535}));
    }

    @Test
    void aMethodOnOneSideOnlyIsTestedWhenItHoldsEnoughThere() {
        ExpressionFilter f = new ExpressionFilter(new long[] {1000, 1000, 1000}, new long[] {1000, 1000});
        assertTrue(f.tested(new long[3], new long[] {30, 25}), "appeared in b");
        assertTrue(f.tested(new long[] {30, 25, 40}, new long[2]), "vanished from b");
        assertFalse(f.tested(new long[3], new long[] {30, 5}), "one window of the two needed");
        assertFalse(f.tested(new long[] {7, 0, 0}, new long[] {7, 0}), "15 needed over both sides");
    }

    @Test
    void agreesWithTheRuleOnCountsPerMillionOnRandomSides() {
        Random random = new Random(29);
        for (int t = 0; t < 2000; t++) {
            long[] na = sizes(random, 1 + random.nextInt(14));
            long[] nb = sizes(random, 1 + random.nextInt(14));
            long[] xa = counts(random, na);
            long[] xb = counts(random, nb);
            ExpressionFilter f = new ExpressionFilter(na, nb);
            String what = "case " + t + ": " + Arrays.toString(na) + Arrays.toString(nb) + Arrays.toString(xa)
                    + Arrays.toString(xb);
            boolean expected = reference(xa, na, xb, nb) && reference(minus(na, xa), na, minus(nb, xb), nb);
            assertEquals(expected, f.tested(xa, xb), what);
            // which side holds the samples does not matter
            assertEquals(expected, new ExpressionFilter(nb, na).tested(xb, xa), what);
        }
    }

    /**
     * edgeR's filterByExpr as its R code reads: counts per million against min.count / median
     * library size, kept in at least the smaller group's size (large.n, min.prop beyond), and the
     * total against min.total.count.
     */
    private static boolean reference(long[] xa, long[] na, long[] xb, long[] nb) {
        long[] lib = LongStream.concat(Arrays.stream(na), Arrays.stream(nb)).toArray();
        long[] x = LongStream.concat(Arrays.stream(xa), Arrays.stream(xb)).toArray();
        double[] sorted = Arrays.stream(lib).asDoubleStream().sorted().toArray();
        int r = sorted.length;
        double median = r % 2 == 1 ? sorted[r / 2] : (sorted[r / 2 - 1] + sorted[r / 2]) / 2;
        double cutoff = 10 / median * 1e6;
        double minSize = Math.min(na.length, nb.length);
        if (minSize > 10) {
            minSize = 10 + (minSize - 10) * 0.7;
        }
        int kept = 0;
        for (int j = 0; j < r; j++) {
            kept += (double) x[j] / lib[j] * 1e6 >= cutoff * (1 - 1e-12) ? 1 : 0;
        }
        return kept >= minSize - 1e-9 && Arrays.stream(x).sum() >= 15;
    }

    private static long[] sizes(Random random, int n) {
        long[] out = new long[n];
        for (int j = 0; j < n; j++) {
            out[j] = 20 + random.nextInt(random.nextBoolean() ? 200 : 5000);
        }
        return out;
    }

    private static long[] counts(Random random, long[] n) {
        double share = random.nextInt(4) == 0 ? 1 - random.nextDouble() * 0.05 : random.nextDouble() * 0.05;
        long[] out = new long[n.length];
        for (int j = 0; j < n.length; j++) {
            out[j] = Math.min(n[j], Math.round(n[j] * share * 2 * random.nextDouble()));
        }
        return out;
    }

    private static long[] minus(long[] n, long[] x) {
        long[] out = new long[n.length];
        for (int j = 0; j < n.length; j++) {
            out[j] = n[j] - x[j];
        }
        return out;
    }
}
