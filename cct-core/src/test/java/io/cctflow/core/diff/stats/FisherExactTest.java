package io.cctflow.core.diff.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FisherExactTest {
    private static final MathContext MC = new MathContext(40);

    /** Brute force: every split's probability from exact binomial coefficients. */
    static double referenceTwoSided(int xA, int nA, int xB, int nB) {
        int k = xA + xB;
        BigInteger norm = choose(nA + nB, k);
        BigDecimal observed = new BigDecimal(choose(nB, xB).multiply(choose(nA, xA)));
        BigDecimal tail = BigDecimal.ZERO;
        for (int x = Math.max(0, k - nA); x <= Math.min(k, nB); x++) {
            BigDecimal f = new BigDecimal(choose(nB, x).multiply(choose(nA, k - x)));
            if (f.compareTo(observed.multiply(new BigDecimal("1.0000001"))) <= 0) {
                tail = tail.add(f);
            }
        }
        return Math.min(1.0, tail.divide(new BigDecimal(norm), MC).doubleValue());
    }

    static BigInteger choose(int n, int r) {
        BigInteger c = BigInteger.ONE;
        for (int i = 0; i < r; i++) {
            c = c.multiply(BigInteger.valueOf(n - i)).divide(BigInteger.valueOf(i + 1));
        }
        return c;
    }

    @Test
    void matchesExactEnumerationOnRandomTables() {
        Random random = new Random(7);
        for (int t = 0; t < 400; t++) {
            int nA = 1 + random.nextInt(t < 200 ? 30 : 400);
            int nB = 1 + random.nextInt(t < 200 ? 30 : 400);
            int xA = random.nextInt(nA + 1);
            int xB = random.nextInt(nB + 1);
            double expected = referenceTwoSided(xA, nA, xB, nB);
            double actual = FisherExact.twoSided(xA, nA, xB, nB);
            String table = xA + "/" + nA + " vs " + xB + "/" + nB;
            assertEquals(expected, actual, 1e-9 + 1e-7 * expected, table);
        }
    }

    @Test
    void matchesTextbookValue() {
        // Fisher's tea tasting: 3 of 4 right, one-sided 0.2429, two-sided 0.4857
        assertEquals(0.4857142857, FisherExact.twoSided(3, 4, 1, 4), 1e-9);
    }

    @Test
    void reachabilityAgreesWithTheSmallestPValueOverAllSplits() {
        Random random = new Random(11);
        for (int t = 0; t < 300; t++) {
            int nA = 1 + random.nextInt(60);
            int nB = 1 + random.nextInt(3000);
            int k = random.nextInt(Math.min(nA + nB, 40) + 1);
            double smallest = 1;
            for (int x = Math.max(0, k - nA); x <= Math.min(k, nB); x++) {
                smallest = Math.min(smallest, referenceTwoSided(k - x, nA, x, nB));
            }
            boolean expected = smallest <= 0.05;
            assertEquals(expected, FisherExact.canReach(nA, nB, k, 0.05), nA + " " + nB + " " + k + " min " + smallest);
        }
    }

    @Test
    void testOfSizeAtMostItsLevelUnderEqualShares() {
        // exact size: sum over all outcomes of two binomials with one share of P(outcome) [p <= a]
        int nA = 40;
        int nB = 60;
        for (double share : new double[] {0.02, 0.1, 0.3, 0.5}) {
            double size = 0;
            for (int xA = 0; xA <= nA; xA++) {
                for (int xB = 0; xB <= nB; xB++) {
                    if (FisherExact.twoSided(xA, nA, xB, nB) <= 0.05) {
                        size += binomial(nA, xA, share) * binomial(nB, xB, share);
                    }
                }
            }
            assertTrue(size <= 0.05, "size " + size + " at share " + share);
        }
    }

    static double binomial(int n, int x, double p) {
        return Math.exp(Distributions.logGamma(n + 1.0) - Distributions.logGamma(x + 1.0)
                - Distributions.logGamma(n - x + 1.0) + x * Math.log(p) + (n - x) * Math.log1p(-p));
    }
}
