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
        return quasiBinomial(xA, nA, xB, nB, dispersionA, dispersionB, df, quantile, 1, 1);
    }

    /**
     * {@link #quasiBinomial(long, long, long, long, double, double, double, double)} of the
     * normalised shares {@code x / (n norm)}: under "no change" side s's count has the mean {@code
     * n_s norm_s pi} ({@code pi} the pooled normalised share) and the variance {@code d_s n_s p_s (1 -
     * p_s)}, {@code p_s = norm_s pi}; the interval is Newcombe's of the raw shares, each side's
     * divided by its factor.
     *
     * @param normA side A's normalisation factor ({@link Normalisation}), positive
     * @param normB side B's
     */
    public static ShareChange quasiBinomial(long xA, long nA, long xB, long nB, double dispersionA,
            double dispersionB, double df, double quantile, double normA, double normB) {
        FisherExact.checkCounts(xA, nA, xB, nB);
        if (!(dispersionA >= 1 && dispersionB >= 1)) {
            throw new IllegalArgumentException("dispersions must be >= 1, got " + dispersionA + ", " + dispersionB);
        }
        if (!(normA > 0 && normB > 0 && Double.isFinite(normA) && Double.isFinite(normB))) {
            throw new IllegalArgumentException("normalisation factors must be positive, got " + normA + ", " + normB);
        }
        double t = score(xA, nA, xB, nB, dispersionA, dispersionB, normA, normB);
        double p = Distributions.studentTwoSided(t, df);
        double[] ci = newcombe(xA, nA, xB, nB, dispersionA, dispersionB, quantile, normA, normB);
        return new ShareChange(xA, nA, xB, nB, ci[0], ci[1], p, normA, normB);
    }

    /**
     * The pooled score statistic (pB - pA) / sqrt(p (1 - p) (dA / nA + dB / nB)), p the pooled share
     * and dA, dB the sides' dispersions; 0 when the pool is 0 or 1.
     */
    static double score(long xA, long nA, long xB, long nB, double dispersionA, double dispersionB) {
        return score(xA, nA, xB, nB, dispersionA, dispersionB, 1, 1);
    }

    /**
     * The score statistic of the normalised shares: (xB / (nB fB) - xA / (nA fA)) / sqrt(dA pA (1 -
     * pA) / (nA fA^2) + dB pB (1 - pB) / (nB fB^2)), {@code p_s = f_s pi} at most 1, {@code pi = (xA +
     * xB) / (nA fA + nB fB)}; 0 when the variance is 0. With factors 1, the pooled score statistic.
     */
    static double score(long xA, long nA, long xB, long nB, double dispersionA, double dispersionB,
            double normA, double normB) {
        double pooled = (xA + xB) / (nA * normA + nB * normB);
        double pA = Math.min(1, pooled * normA);
        double pB = Math.min(1, pooled * normB);
        double variance = dispersionA * pA * (1 - pA) / (nA * normA * normA)
                + dispersionB * pB * (1 - pB) / (nB * normB * normB);
        if (variance <= 0) {
            return 0;
        }
        return (xB / (nB * normB) - xA / (nA * normA)) / Math.sqrt(variance);
    }

    /** Newcombe's method 10: {low, high} of pB - pA from the two Wilson intervals of n / dispersion samples. */
    static double[] newcombe(long xA, long nA, long xB, long nB, double dispersionA, double dispersionB, double z) {
        return newcombe(xA, nA, xB, nB, dispersionA, dispersionB, z, 1, 1);
    }

    /** {@link #newcombe(long, long, long, long, double, double, double)} with each side's share and interval divided by its factor. */
    static double[] newcombe(long xA, long nA, long xB, long nB, double dispersionA, double dispersionB, double z,
            double normA, double normB) {
        double pA = (double) xA / nA;
        double pB = (double) xB / nB;
        double[] a = wilson(pA, nA / dispersionA, z);
        double[] b = wilson(pB, nB / dispersionB, z);
        double delta = pB / normB - pA / normA;
        double low = delta - Math.sqrt(sq((pB - b[0]) / normB) + sq((a[1] - pA) / normA));
        double high = delta + Math.sqrt(sq((b[1] - pB) / normB) + sq((pA - a[0]) / normA));
        return new double[] {Math.max(-1 / normA, low), Math.min(1 / normB, high)};
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
