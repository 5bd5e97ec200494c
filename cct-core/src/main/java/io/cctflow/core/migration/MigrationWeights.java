package io.cctflow.core.migration;

/**
 * How much of each pooled context's share {@link MigrationBlend} takes from the previous
 * deployment: its migrated share and the new deployment's own share are weighted by their
 * precision, and the migrated one is dropped once the new samples alone are precise enough.
 *
 * <p>Within the pooled part (contexts the old profile has and the impact analysis judged reusable),
 * context i has {@code o} old self samples of {@code R} and {@code n} new ones of {@code Nr}; its
 * migrated share is {@code o / R}, its own {@code n / Nr}. Under a binomial model with the pooled
 * estimate {@code p = (o + n) / (R + Nr)}:
 *
 * <ul>
 *   <li>the new share's variance is {@code vNew = p (1 - p) / Nr};
 *   <li>the migrated share's error as an estimate of the new deployment's share is {@code vOld =
 *       p (1 - p) / R + tau2}: its own sampling noise plus {@code tau2}, the between-deployment
 *       variance, how much the old and new shares of pooled contexts disagree beyond sampling
 *       noise. {@code tau2} is the method-of-moments (DerSimonian-Laird) estimate over the k pooled
 *       contexts with samples: with {@code d = o / R - n / Nr} and {@code w = 1 / (p (1 - p) (1 / R
 *       + 1 / Nr))}, {@code Q = sum w d^2} is about {@code k - 1} when the two deployments agree
 *       (the shares add up to 1, so one degree of freedom fewer), and {@code tau2 = max(0, (Q - (k
 *       - 1)) / sum w)}. An old profile that disagrees with the new samples is trusted less, in
 *       every context, and fades faster;
 *   <li><b>dropped</b> (weight 0) when the new deployment's own 95 % interval for the share is
 *       narrower than the migrated share's error: {@code 1.96 sqrt(vNew) <= sqrt(vOld)};
 *   <li>otherwise weighted by inverse variance: the migrated share's weight is {@code vNew / (vNew +
 *       vOld)}. With {@code tau2 = 0} that is {@code R / (R + Nr)}, every sample counting once.
 * </ul>
 *
 * <p>Contexts with a small share drop first (their own interval narrows fastest in absolute
 * terms), the large ones keep the migrated part longest. Stateless; thread-safe.
 */
public final class MigrationWeights {
    /** The normal quantile of the new share's 95 % interval. */
    public static final double Z = 1.96;

    /** The rule in one line, for responses. */
    public static final String RULE = "per context, the migrated share o/R and the new share n/Nr weighted by precision:"
            + " vNew = p(1-p)/Nr, vOld = p(1-p)/R + tau2 (p = (o+n)/(R+Nr); tau2 = between-deployment variance,"
            + " DerSimonian-Laird over the pooled contexts), migrated weight vNew/(vNew+vOld); the migrated part of a"
            + " context is dropped once 1.96 sqrt(vNew) <= sqrt(vOld), and the whole migration once every pooled"
            + " context is dropped";

    private MigrationWeights() {
    }

    /**
     * {@code tau2}: the between-deployment variance of pooled shares; 0 with fewer than two pooled
     * contexts with samples or no samples on either side.
     *
     * @param old old self samples per context ({@code 0} for contexts not pooled)
     * @param neu new self samples per context, same indexes
     * @param pooled which contexts are pooled
     */
    public static double betweenDeploymentVariance(long[] old, long[] neu, boolean[] pooled, long r, long nr) {
        if (r <= 0 || nr <= 0) {
            return 0;
        }
        double q = 0;
        double sumW = 0;
        int k = 0;
        for (int i = 0; i < old.length; i++) {
            if (!pooled[i] || old[i] + neu[i] == 0) {
                continue;
            }
            double p = pooledShare(old[i], neu[i], r, nr);
            double v = p * (1 - p) * (1.0 / r + 1.0 / nr);
            k++;
            if (v > 0) {
                double d = (double) old[i] / r - (double) neu[i] / nr;
                q += d * d / v;
                sumW += 1 / v;
            }
        }
        return k < 2 || sumW == 0 ? 0 : Math.max(0, (q - (k - 1)) / sumW);
    }

    /**
     * The weight of the migrated share of one pooled context, 0 to 1; 0 when dropped.
     *
     * @param o the context's old self samples, of {@code r} &gt; 0
     * @param n its new self samples, of {@code nr} &gt; 0
     * @param tau2 {@link #betweenDeploymentVariance}
     */
    public static double migratedWeight(long o, long n, long r, long nr, double tau2) {
        double p = pooledShare(o, n, r, nr);
        double vNew = p * (1 - p) / nr;
        double vOld = p * (1 - p) / r + tau2;
        if (dropped(vNew, vOld)) {
            return 0;
        }
        return vNew / (vNew + vOld);
    }

    /** Whether the new deployment's own samples suffice for the context: see {@link #migratedWeight}. */
    public static boolean dropped(long o, long n, long r, long nr, double tau2) {
        double p = pooledShare(o, n, r, nr);
        return dropped(p * (1 - p) / nr, p * (1 - p) / r + tau2);
    }

    private static boolean dropped(double vNew, double vOld) {
        return Z * Z * vNew <= vOld;
    }

    private static double pooledShare(long o, long n, long r, long nr) {
        return (double) (o + n) / (r + nr);
    }
}
