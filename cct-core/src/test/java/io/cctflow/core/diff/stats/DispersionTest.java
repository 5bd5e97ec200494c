package io.cctflow.core.diff.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DispersionTest {
    private static final double EULER = 0.5772156649015329;

    @Test
    void digammaAndTrigammaMatchTheirKnownValues() {
        assertEquals(-EULER, Distributions.digamma(1), 1e-12);
        assertEquals(-EULER - 2 * Math.log(2), Distributions.digamma(0.5), 1e-12);
        assertEquals(1 - EULER + 0.5, Distributions.digamma(3), 1e-12);
        assertEquals(Math.PI * Math.PI / 6, Distributions.trigamma(1), 1e-12);
        assertEquals(Math.PI * Math.PI / 2, Distributions.trigamma(0.5), 1e-12);
        assertEquals(Math.PI * Math.PI / 6 - 1 - 0.25, Distributions.trigamma(3), 1e-12);
        Random random = new Random(5);
        for (int i = 0; i < 200; i++) {
            double x = Math.exp(random.nextDouble() * 16 - 6);
            assertEquals(x, Distributions.trigammaInverse(Distributions.trigamma(x)), 1e-9 * x, "x = " + x);
        }
    }

    /** Counts with variance mu (1 - p)(1 + delta mu) (normal, as the counts are large), r replicates a side. */
    private static List<Dispersion.Pearson> negativeBinomialLike(Random random, int shares, int replicates,
            long n, double delta, double spread) {
        List<Dispersion.Pearson> out = new ArrayList<>();
        long[] sizes = new long[replicates];
        java.util.Arrays.fill(sizes, n);
        for (int i = 0; i < shares; i++) {
            double mu = Math.exp(Math.log(20) + random.nextDouble() * Math.log(5000.0 / 20));
            double p = mu / n;
            double own = spread == 0 ? 1 : Math.exp(spread * random.nextGaussian() - spread * spread / 2);
            double sd = Math.sqrt(mu * (1 - p) * (1 + delta * mu) * own);
            long[][] x = new long[2][replicates];
            for (int s = 0; s < 2; s++) {
                for (int j = 0; j < replicates; j++) {
                    x[s][j] = Math.max(1, Math.round(mu + sd * random.nextGaussian()));
                }
            }
            out.add(Dispersion.of(x[0], sizes, x[1], sizes));
        }
        return out;
    }

    @Test
    void theTrendFollowsTheCountsVariance() {
        double delta = 0.01;
        Dispersion.Model m = Dispersion.fit(negativeBinomialLike(new Random(11), 600, 3, 100_000, delta, 0));
        for (double count : new double[] {30, 100, 1000, 4000}) {
            double expected = 1 + delta * count;
            assertEquals(expected, m.trend(count), 0.15 * expected, "count " + count + ", " + m);
        }
        // alike shares: the trend carries them, with many prior degrees of freedom (the point
        // estimate would be larger; the upper confidence bound of the spread takes some away)
        assertTrue(m.priorDf() >= 20, m.toString());
    }

    @Test
    void sharesThatDifferAroundTheTrendGetFewPriorDegreesOfFreedom() {
        // each share's own factor lognormal with log-sd 0.7: far from the trend, so own estimates count
        Dispersion.Model m = Dispersion.fit(negativeBinomialLike(new Random(12), 600, 3, 100_000, 0.01, 0.7));
        assertTrue(m.priorDf() < 10, m.toString());
        Dispersion.Model alike = Dispersion.fit(negativeBinomialLike(new Random(12), 600, 3, 100_000, 0.01, 0));
        assertTrue(alike.priorDf() > 3 * m.priorDf(), m + " vs " + alike);
    }

    @Test
    void thePriorScaleIsAtLeastTheSharesPooledFactor() {
        for (double spread : new double[] {0, 0.4, 0.7, 1.2}) {
            List<Dispersion.Pearson> shares = negativeBinomialLike(new Random(13), 400, 3, 100_000, 0.01, spread);
            Dispersion.Model m = Dispersion.fit(shares);
            Dispersion.Model trend = Dispersion.trend(shares.stream().filter(p -> p.df() > 0)
                    .toArray(Dispersion.Pearson[]::new));
            // the pooled factor computed directly: sum of X2 over the sum of its expectations on the trend
            double chi = 0;
            double expected = 0;
            for (Dispersion.Pearson p : shares) {
                chi += p.chiSquare();
                expected += p.dfA() * trend.trend(p.countA()) + p.dfB() * trend.trend(p.countB());
            }
            double[] logMoments = Dispersion.prior(trend, shares.toArray(Dispersion.Pearson[]::new));
            String what = "spread " + spread + ": " + m;
            assertEquals(Math.max(logMoments[1], chi / expected), m.priorScale(), 1e-9, what);
            if (spread >= 0.7) {
                // factors that spread: the mean of their logarithms sits below their mean
                assertTrue(logMoments[1] < chi / expected, what);
            }
        }
    }

    @Test
    void binomialCountsHaveAFlatTrendOfOne() {
        Random random = new Random(13);
        List<Dispersion.Pearson> shares = new ArrayList<>();
        long[] sizes = {20_000, 20_000};
        for (int i = 0; i < 400; i++) {
            double p = Math.exp(Math.log(1e-3) + random.nextDouble() * Math.log(200));
            long[][] x = new long[2][2];
            for (int s = 0; s < 2; s++) {
                for (int j = 0; j < 2; j++) {
                    double sd = Math.sqrt(20_000 * p * (1 - p));
                    x[s][j] = Math.max(1, Math.round(20_000 * p + sd * random.nextGaussian()));
                }
            }
            shares.add(Dispersion.of(x[0], sizes, x[1], sizes));
        }
        Dispersion.Model m = Dispersion.fit(shares);
        for (double count : new double[] {20, 200, 2000}) {
            assertEquals(1, m.trend(count), 0.25, m.toString());
        }
    }

    @Test
    void replicatesInProportionHaveNoSpreadAndLeaveTheBinomialTest() {
        // stored copies of one window (and windows in proportion): X2 exactly 0, not rounding noise,
        // so the shares do not seem to scatter around the trend; the test is binomial with many df
        Random random = new Random(17);
        List<Dispersion.Pearson> shares = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            long x = 1 + random.nextInt(3000);
            long y = 1 + random.nextInt(3000);
            shares.add(Dispersion.of(new long[] {x, 3 * x}, new long[] {7001, 21003}, new long[] {y, y},
                    new long[] {5003, 5003}));
            assertEquals(0, shares.get(i).chiSquare(), 0.0);
        }
        Dispersion.Model m = Dispersion.fit(shares);
        assertEquals(Dispersion.MAX_DF, m.priorDf(), 0.0, m.toString());
        assertEquals(1, Math.max(1, m.trend(100) * m.factor(shares.get(0))), 0.0, m.toString());
    }

    @Test
    void aShareWithoutDegreesOfFreedomTakesThePrior() {
        // side A's share is 0 and side B has one replicate: nothing of its own
        Dispersion.Pearson none = Dispersion.of(new long[] {0, 0}, new long[] {100, 100}, new long[] {5},
                new long[] {100});
        assertEquals(0, none.df());
        Dispersion.Model m = new Dispersion.Model(2, 0, 1, 8, 1.5);
        assertEquals(1.5, m.factor(none), 1e-12);
        assertEquals(8, m.degreesOfFreedom(none), 1e-12);
        assertEquals(2, m.trend(123), 1e-12);
    }

    @Test
    void aShareFarAboveThePriorKeepsItsOwnFactorAndDegreesOfFreedom() {
        Dispersion.Model m = new Dispersion.Model(1, 0, 1, Dispersion.MAX_DF, 1);
        // 40 samples in one of five windows of 6,000, none on side b: X2 160 on 4 df
        Dispersion.Pearson burst = Dispersion.of(new long[] {40, 0, 0, 0, 0}, new long[] {6000, 6000, 6000, 6000, 6000},
                new long[4], new long[] {6000, 6000, 6000, 6000});
        assertEquals(4, burst.df());
        assertTrue(m.outlier(burst));
        assertEquals(burst.chiSquare() / 4, m.factor(burst), 1e-12);
        assertEquals(4, m.degreesOfFreedom(burst), 0.0);
        // the same samples spread evenly: on the trend, moderated to it
        Dispersion.Pearson calm = Dispersion.of(new long[] {8, 8, 8, 8, 8}, new long[] {6000, 6000, 6000, 6000, 6000},
                new long[4], new long[] {6000, 6000, 6000, 6000});
        assertFalse(m.outlier(calm));
        assertEquals(1, m.factor(calm), 1e-5);
        assertEquals(Dispersion.MAX_DF, m.degreesOfFreedom(calm), 0.0);
        // the boundary: X2 at the upper 1 % quantile of chi-square(4) (13.2767) is where it turns
        Dispersion.Model binomial = new Dispersion.Model(1, 0, 1, Dispersion.MAX_DF, 1);
        assertFalse(binomial.outlier(new Dispersion.Pearson(13.2, 2, 8, 2, 8)));
        assertTrue(binomial.outlier(new Dispersion.Pearson(13.4, 2, 8, 2, 8)));
    }
}
