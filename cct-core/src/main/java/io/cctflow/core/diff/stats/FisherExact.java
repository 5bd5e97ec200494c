package io.cctflow.core.diff.stats;

/**
 * Fisher's exact test of two binomial shares: {@code xA} of {@code nA} samples against {@code xB}
 * of {@code nB}. Conditional on the method's samples on both sides together, {@code k = xA + xB},
 * {@code xB} is hypergeometric under "equal shares"; the two-sided p-value sums the probabilities
 * of every split at most as likely as the one observed (the usual definition, R's
 * {@code fisher.test}). Exact for any counts; the cost is one multiplication per possible split,
 * at most {@code min(k, N - k, nA, nB) + 1} of them. Stateless.
 */
public final class FisherExact {
    /** Relative slack when comparing a split's probability with the observed one (ties in doubles). */
    private static final double TIE = 1 + 1e-7;

    private FisherExact() {
    }

    /** Number of splits of {@code k} samples between the sides: the cost of {@link #twoSided}. */
    public static long splits(long nA, long nB, long k) {
        return lowest(nA, k) > highest(nB, k) ? 0 : highest(nB, k) - lowest(nA, k) + 1;
    }

    /** The two-sided p-value; 1 when {@code k = 0} or every sample is the method's. */
    public static double twoSided(long xA, long nA, long xB, long nB) {
        checkCounts(xA, nA, xB, nB);
        long k = xA + xB;
        long lo = lowest(nA, k);
        long hi = highest(nB, k);
        if (lo == hi) {
            return 1.0;
        }
        // probabilities relative to the mode (1 there), by the ratio of neighbouring splits
        long n = nA + nB;
        long mode = Math.max(lo, Math.min(hi, (long) Math.floor((double) (k + 1) * (nB + 1) / (n + 2))));
        double observed = relative(mode, xB, nA, nB, k);
        double total = 1;
        double tail = 1 <= observed * TIE ? 1 : 0;
        double f = 1;
        for (long x = mode; x < hi && f > 0; x++) {
            f *= ratioUp(x, nA, nB, k);
            total += f;
            if (f <= observed * TIE) {
                tail += f;
            }
        }
        f = 1;
        for (long x = mode; x > lo && f > 0; x--) {
            f /= ratioUp(x - 1, nA, nB, k);
            total += f;
            if (f <= observed * TIE) {
                tail += f;
            }
        }
        return Math.min(1.0, tail / total);
    }

    /**
     * Whether some split of these margins has a two-sided p-value at most {@code level}. A method
     * that cannot reach the level, whatever its split, can never be significant, so it is left out
     * of the multiple-testing count (Tarone). The answer depends on the margins only, never on the
     * split observed, so leaving such methods out keeps the false discovery rate controlled. Usually
     * O(1): the most extreme split's probability bounds its p-value from below, and that times the
     * number of splits bounds it from above; only between the bounds is the p-value computed.
     */
    public static boolean canReach(long nA, long nB, long k, double level) {
        long lo = lowest(nA, k);
        long hi = highest(nB, k);
        if (lo >= hi) {
            return false;
        }
        double logNorm = logChoose(nA + nB, k);
        double extreme = Math.exp(Math.min(logPmf(lo, nA, nB, k), logPmf(hi, nA, nB, k)) - logNorm);
        if (extreme > level) {
            return false;
        }
        long splits = hi - lo + 1;
        if (extreme * splits <= level || splits > ShareTest.EXACT_SPLITS) {
            return true;
        }
        return Math.min(twoSided(k - lo, nA, lo, nB), twoSided(k - hi, nA, hi, nB)) <= level;
    }

    /** f(x + 1) / f(x) for the hypergeometric count on side B. */
    private static double ratioUp(long x, long nA, long nB, long k) {
        return (double) (k - x) * (nB - x) / ((double) (x + 1) * (nA - k + x + 1));
    }

    /** f(x) / f(mode) in logs, through log-gamma: one evaluation for the observed split. */
    private static double relative(long mode, long x, long nA, long nB, long k) {
        return Math.exp(logPmf(x, nA, nB, k) - logPmf(mode, nA, nB, k));
    }

    private static double logPmf(long x, long nA, long nB, long k) {
        return logChoose(nB, x) + logChoose(nA, k - x);
    }

    private static double logChoose(long n, long r) {
        return Distributions.logGamma(n + 1.0) - Distributions.logGamma(r + 1.0) - Distributions.logGamma(n - r + 1.0);
    }

    private static long lowest(long nA, long k) {
        return Math.max(0, k - nA);
    }

    private static long highest(long nB, long k) {
        return Math.min(k, nB);
    }

    static void checkCounts(long xA, long nA, long xB, long nB) {
        if (xA < 0 || xB < 0 || xA > nA || xB > nB) {
            throw new IllegalArgumentException("counts must satisfy 0 <= x <= n, got " + xA + " of " + nA + " and "
                    + xB + " of " + nB);
        }
    }
}
