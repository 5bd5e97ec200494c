package io.cctflow.core.diff.stats;

/**
 * The test of one share between two sides, under one of two sampling models.
 *
 * <p><b>Binomial</b> (one replicate per side): each sample independently has the share's property
 * (a frame of the method on the stack, or the method as the leaf) with a fixed probability per
 * side. The p-value is Fisher's exact test ({@link FisherExact}) while the possible splits of the
 * method's samples number at most {@value #EXACT_SPLITS}; beyond that, the pooled two-proportion
 * score test (normal), which is then accurate to a few percent down to p = 1e-6.
 *
 * <p><b>Quasi-binomial</b> (replicates): the variance of each side's share is its dispersion times
 * the binomial one ({@link Dispersion} estimates it from the replicates; the two sides' differ when
 * their replicates hold different numbers of samples); the statistic is the pooled score statistic
 * with each side's variance so scaled, referred to Student's t with the dispersion's degrees of
 * freedom.
 *
 * <p>The interval in both: Newcombe's hybrid score interval for a difference of proportions (each
 * side's Wilson interval, combined), computed with the effective sample sizes {@code n /
 * dispersion} and the normal (binomial) or t (quasi-binomial) quantile. It is the marginal
 * interval of one share, not adjusted for the number of methods. Stateless.
 */
public final class ShareTest {
    /** Above this many possible splits the normal approximation replaces the exact test. */
    public static final long EXACT_SPLITS = 2000;

    private ShareTest() {
    }

    /** Binomial model: Fisher's exact test (or the score test for large counts), Newcombe's interval. */
    public static ShareChange binomial(long xA, long nA, long xB, long nB, double confidence) {
        FisherExact.checkCounts(xA, nA, xB, nB);
        double p = FisherExact.splits(nA, nB, xA + xB) <= EXACT_SPLITS
                ? FisherExact.twoSided(xA, nA, xB, nB)
                : Distributions.normalTwoSided(score(xA, nA, xB, nB, 1, 1));
        double z = Distributions.normalQuantile(1 - (1 - confidence) / 2);
        double[] ci = newcombe(xA, nA, xB, nB, 1, 1, z);
        return new ShareChange(xA, nA, xB, nB, ci[0], ci[1], p);
    }

    /**
     * Quasi-binomial model: each side's share has {@code dispersion} times its binomial variance.
     *
     * @param dispersionA variance of side A's share relative to the binomial, at least 1
     * @param dispersionB the same for side B
     * @param df degrees of freedom of the dispersion estimate
     * @param quantile Student's t quantile of the interval's confidence for {@code df} ({@link
     *     Distributions#studentQuantile}), passed in because many shares have the same
     */
    public static ShareChange quasiBinomial(long xA, long nA, long xB, long nB, double dispersionA,
            double dispersionB, double df, double quantile) {
        FisherExact.checkCounts(xA, nA, xB, nB);
        if (!(dispersionA >= 1 && dispersionB >= 1)) {
            throw new IllegalArgumentException("dispersions must be >= 1, got " + dispersionA + ", " + dispersionB);
        }
        double t = score(xA, nA, xB, nB, dispersionA, dispersionB);
        double p = Distributions.studentTwoSided(t, df);
        double[] ci = newcombe(xA, nA, xB, nB, dispersionA, dispersionB, quantile);
        return new ShareChange(xA, nA, xB, nB, ci[0], ci[1], p);
    }

    /**
     * The pooled score statistic (pB - pA) / sqrt(p (1 - p) (dA / nA + dB / nB)), p the pooled share
     * and dA, dB the sides' dispersions; 0 when the pool is 0 or 1.
     */
    static double score(long xA, long nA, long xB, long nB, double dispersionA, double dispersionB) {
        double pooled = (double) (xA + xB) / (nA + nB);
        double variance = pooled * (1 - pooled) * (dispersionA / nA + dispersionB / nB);
        if (variance <= 0) {
            return 0;
        }
        return ((double) xB / nB - (double) xA / nA) / Math.sqrt(variance);
    }

    /** Newcombe's method 10: {low, high} of pB - pA from the two Wilson intervals of n / dispersion samples. */
    static double[] newcombe(long xA, long nA, long xB, long nB, double dispersionA, double dispersionB, double z) {
        double pA = (double) xA / nA;
        double pB = (double) xB / nB;
        double[] a = wilson(pA, nA / dispersionA, z);
        double[] b = wilson(pB, nB / dispersionB, z);
        double delta = pB - pA;
        double low = delta - Math.sqrt(sq(pB - b[0]) + sq(a[1] - pA));
        double high = delta + Math.sqrt(sq(b[1] - pB) + sq(pA - a[0]));
        return new double[] {Math.max(-1, low), Math.min(1, high)};
    }

    /** Wilson's score interval of a proportion p from n (effective) samples. */
    static double[] wilson(double p, double n, double z) {
        double z2n = z * z / n;
        double centre = (p + z2n / 2) / (1 + z2n);
        double half = z / (1 + z2n) * Math.sqrt(p * (1 - p) / n + z2n / (4 * n));
        return new double[] {Math.max(0, centre - half), Math.min(1, centre + half)};
    }

    private static double sq(double x) {
        return x * x;
    }
}
