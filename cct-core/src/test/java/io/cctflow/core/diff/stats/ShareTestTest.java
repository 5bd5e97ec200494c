package io.cctflow.core.diff.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ShareTestTest {
    /** Fisher's p-value summed in logs: slow, exact, independent of {@link FisherExact}'s recurrence. */
    static double exactInLogs(long xA, long nA, long xB, long nB) {
        long k = xA + xB;
        double observed = logPmf(xB, nA, nB, k);
        double total = 0;
        double tail = 0;
        for (long x = Math.max(0, k - nA); x <= Math.min(k, nB); x++) {
            double f = Math.exp(logPmf(x, nA, nB, k) - observed);
            total += f;
            if (f <= 1 + 1e-7) {
                tail += f;
            }
        }
        return tail / total;
    }

    static double logPmf(long x, long nA, long nB, long k) {
        return lc(nB, x) + lc(nA, k - x);
    }

    static double lc(long n, long r) {
        return Distributions.logGamma(n + 1.0) - Distributions.logGamma(r + 1.0) - Distributions.logGamma(n - r + 1.0);
    }

    @Test
    void largeCountsUseTheScoreTestWithinAFewPercentOfExact() {
        Random random = new Random(5);
        int checked = 0;
        while (checked < 200) {
            long nA = 20_000 + random.nextInt(200_000);
            long nB = 20_000 + random.nextInt(200_000);
            double share = 0.02 + 0.5 * random.nextDouble();
            long xA = Math.round(nA * share);
            long xB = Math.round(nB * share * (1 + 0.08 * random.nextGaussian() / Math.sqrt(share * 100)));
            if (FisherExact.splits(nA, nB, xA + xB) <= ShareTest.EXACT_SPLITS || xB < 0 || xB > nB) {
                continue;
            }
            double exact = exactInLogs(xA, nA, xB, nB);
            if (exact < 1e-6) {
                continue;
            }
            checked++;
            double approx = ShareTest.binomial(xA, nA, xB, nB, 0.95).pValue();
            assertEquals(exact, approx, 0.05 * exact + 1e-4, xA + "/" + nA + " vs " + xB + "/" + nB);
        }
    }

    @Test
    void intervalCoversTheTrueDifferenceAtItsConfidence() {
        Random random = new Random(9);
        int covered = 0;
        int trials = 4000;
        for (int t = 0; t < trials; t++) {
            int nA = 500 + random.nextInt(5000);
            int nB = 500 + random.nextInt(5000);
            double pA = 0.005 + 0.3 * random.nextDouble();
            double pB = pA * (0.7 + 0.6 * random.nextDouble());
            ShareChange c = ShareTest.binomial(draw(random, nA, pA), nA, draw(random, nB, pB), nB, 0.95);
            if (c.low() <= pB - pA && pB - pA <= c.high()) {
                covered++;
            }
        }
        double coverage = (double) covered / trials;
        // 95 % nominal; 3.5 binomial standard errors of 4000 trials is 0.012
        assertTrue(coverage >= 0.95 - 0.012, "coverage " + coverage);
    }

    @Test
    void quasiBinomialWithDispersionOneAndManyDegreesIsTheScoreTest() {
        double quantile = Distributions.studentQuantile(0.95, 1e7);
        ShareChange q = ShareTest.quasiBinomial(500, 10_000, 600, 10_000, 1.0, 1.0, 1e7, quantile);
        double z = ShareTest.score(500, 10_000, 600, 10_000, 1, 1);
        assertEquals(Distributions.normalTwoSided(z), q.pValue(), 1e-6);
        ShareChange wider = ShareTest.quasiBinomial(500, 10_000, 600, 10_000, 4.0, 4.0, 1e7, quantile);
        // four times the variance on both sides halves the statistic
        assertEquals(Distributions.normalTwoSided(z / 2), wider.pValue(), 1e-6);
        assertTrue(wider.pValue() > q.pValue() && wider.high() - wider.low() > q.high() - q.low());
        // one side's dispersion alone: (1 + 4) / 2 the variance of equal sides, between the two
        ShareChange half = ShareTest.quasiBinomial(500, 10_000, 600, 10_000, 4.0, 1.0, 1e7, quantile);
        assertEquals(Distributions.normalTwoSided(z / Math.sqrt(2.5)), half.pValue(), 1e-6);
    }

    @Test
    void normalisedSharesWithEqualFactorsGiveTheUnnormalisedTest() {
        Random random = new Random(17);
        double quantile = Distributions.studentQuantile(0.95, 6);
        for (int t = 0; t < 1000; t++) {
            long nA = 1 + random.nextInt(50_000);
            long nB = 1 + random.nextInt(50_000);
            long xA = (long) (random.nextDouble() * (nA + 1));
            long xB = (long) (random.nextDouble() * (nB + 1));
            double dA = 1 + 3 * random.nextDouble();
            double dB = 1 + 3 * random.nextDouble();
            double f = 0.5 + random.nextDouble();
            ShareChange raw = ShareTest.quasiBinomial(xA, nA, xB, nB, dA, dB, 6, quantile);
            ShareChange scaled = ShareTest.quasiBinomial(xA, nA, xB, nB, dA, dB, 6, quantile, f, f);
            String what = xA + "/" + nA + " vs " + xB + "/" + nB + ", factor " + f;
            // one factor on both sides scales both shares alike: the same test, the interval scaled
            assertEquals(raw.pValue(), scaled.pValue(), 1e-9 * Math.max(raw.pValue(), 1e-300) + 1e-15, what);
            assertEquals(raw.delta() / f, scaled.delta(), 1e-12, what);
            assertEquals(Math.max(-1 / f, raw.low() / f), scaled.low(), 1e-12, what);
            assertEquals(Math.min(1 / f, raw.high() / f), scaled.high(), 1e-12, what);
        }
    }

    @Test
    void countsInProportionToTheEffectiveSamplesAreNoChange() {
        // side B's bulk shrank by 1/1.25 (another method grew): 1000 of 10,000 against 800 of
        // 10,000 is a fall of the raw share but no change of the normalised one
        double quantile = Distributions.studentQuantile(0.95, 6);
        ShareChange c = ShareTest.quasiBinomial(1000, 10_000, 800, 10_000, 1, 1, 6, quantile, 1.0, 0.8);
        assertEquals(0, c.delta(), 1e-15);
        assertEquals(1, c.pValue(), 1e-12);
        assertTrue(c.low() < 0 && c.high() > 0);
        assertTrue(ShareTest.quasiBinomial(1000, 10_000, 800, 10_000, 1, 1, 6, quantile).pValue() < 0.01); // t = 4.9 with 6 degrees of freedom
    }

    static int draw(Random random, int n, double p) {
        int x = 0;
        for (int i = 0; i < n; i++) {
            x += random.nextDouble() < p ? 1 : 0;
        }
        return x;
    }
}
