package io.cctflow.core.diff.stats;

import java.util.List;

/**
 * Over-dispersion of a share from replicates (quasi-binomial model). Replicate j of side s has
 * {@code x_sj} of {@code n_sj} samples; under the model its share varies around the side's pooled
 * share {@code p_s} with variance {@code phi p_s (1 - p_s) / n_sj}. Pearson's estimate is
 * {@code X2 / d} with {@code X2 = sum (x_sj - n_sj p_s)^2 / (n_sj p_s (1 - p_s))} and {@code d} the
 * replicates minus one per side (sides whose pooled share is 0 or 1 add nothing).
 *
 * <p>One method's estimate rests on few degrees of freedom (two replicates per side give 2), so
 * it is moderated towards the estimate pooled over all methods, as limma moderates variances:
 * {@code phi_m = (d0 phi_pool + d_m X2_m / d_m) / (d0 + d_m)}, with {@code d0 = } {@value #PRIOR_DF}
 * degrees of freedom for the pool (capped by the pool's own), floored at 1 (never less noise than
 * binomial sampling), and {@code d0 + d_m} degrees of freedom for the test. Dispersion grows with
 * a method's samples per replicate (a window that runs a method's code more often moves all of its
 * samples at once), so a busy method's own estimate is usually above the pool; moderation must not
 * pull it down, so the larger of the moderated and the method's own estimate is used. Simulated
 * A/A pairs showed the false-positive rate at 7-14 % with pure moderation at 10,000-50,000 samples,
 * within the level with this floor (bench {@code SignificanceBenchmark}). Stateless.
 */
public final class Dispersion {
    /** Weight of the pooled estimate, in degrees of freedom. */
    public static final double PRIOR_DF = 20;

    private Dispersion() {
    }

    /** Pearson's X2 of one method and its degrees of freedom. */
    record Pearson(double chiSquare, int df) {
    }

    /** Pearson's X2 of one share over the replicates of both sides. */
    static Pearson of(long[] xA, long[] nA, long[] xB, long[] nB) {
        double chi = 0;
        int df = 0;
        for (long[][] side : List.of(new long[][] {xA, nA}, new long[][] {xB, nB})) {
            long[] x = side[0];
            long[] n = side[1];
            long sx = 0;
            long sn = 0;
            for (int j = 0; j < x.length; j++) {
                sx += x[j];
                sn += n[j];
            }
            if (sx == 0 || sx == sn || x.length < 2) {
                continue;
            }
            double p = (double) sx / sn;
            for (int j = 0; j < x.length; j++) {
                if (n[j] > 0) {
                    double expected = n[j] * p;
                    chi += (x[j] - expected) * (x[j] - expected) / (expected * (1 - p));
                }
            }
            df += x.length - 1;
        }
        return new Pearson(chi, df);
    }

    /** The moderated dispersion of one method: at least 1. */
    static double moderated(Pearson own, double pooled, double priorDf) {
        double phi = (priorDf * pooled + own.chiSquare()) / (priorDf + own.df());
        double alone = own.df() == 0 ? 1.0 : own.chiSquare() / own.df();
        return Math.max(1.0, Math.max(phi, alone));
    }
}
