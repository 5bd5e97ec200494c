package io.cctflow.core.diff.stats;

import java.util.Arrays;
import java.util.List;

/**
 * The noise of a share between replicates: a quasi-negative-binomial model with a dispersion trend
 * over a method's samples per replicate and each share's own dispersion moderated towards the
 * trend by empirical Bayes (the model of edgeR's quasi-likelihood F-test and limma's {@code
 * squeezeVar}, for counts with few replicates and many features).
 *
 * <p><b>Model.</b> Replicate j of side s has {@code x_sj} of {@code n_sj} samples in the share
 * (a method's method samples, or its self samples); its expected count is {@code mu_sj = n_sj p_s}
 * and its variance {@code s2_i mu_sj (1 - p_s) (a + b mu_sj^g)}:
 * <ul>
 *   <li>{@code a >= 1} is the excess over binomial sampling that does not grow with the count
 *       (JFR samples one thread periodically, so a long call is sampled several times in a row);
 *   <li>{@code b mu^g} ({@code b >= 0}, {@code g} in [{@value #MIN_POWER}, {@value #MAX_POWER}])
 *       is the excess that grows with it: a window that runs a method's code more often moves all
 *       of its samples at once. With {@code g = 1} this is the negative binomial's variance ({@code
 *       b} the squared coefficient of variation of the method's rate between replicates); busy
 *       methods spread over many call paths vary less in relative terms than a method of one hot
 *       path, which {@code g < 1} follows. {@code a + b mu^g} is the trend of the dispersion over
 *       the count;
 *   <li>{@code s2_i} is share i's own factor around the trend (methods of the same count differ in
 *       how concentrated their samples are): a scaled inverse chi-square prior with {@code d0}
 *       degrees of freedom and scale {@code s0^2}.
 * </ul>
 *
 * <p><b>Estimation.</b> Pearson's {@code X2_i = sum (x_sj - n_sj p_s)^2 / (n_sj p_s (1 - p_s))}
 * over both sides' replicates around each side's own share has {@code d_i} = replicates minus one
 * per side (a side whose share is 0 or 1 adds nothing) and expectation {@code s2_i sum_s (r_s - 1)
 * trend(m_s)}, {@code m_s} the side's count per replicate (exact for replicates of equal size); a
 * true change between the sides does not enter it. The trend is fitted to every share's {@code X2_i
 * / d_i} (method times and self times together): for each power {@code g} on a grid, {@code (a,
 * b)} by iteratively reweighted least squares with weights {@code d_i / trend^2} (a gamma model:
 * each share's relative error counts alike) under {@code a >= 1, b >= 0}, and the power of the
 * smallest gamma deviance kept. The prior {@code (d0, s0^2)} is fitted to the shares' ratios {@code
 * s2_i = X2_i / E_trend X2_i} by the moments of their logarithms (limma's {@code fitFDist}: {@code
 * E log s2 = log s0^2 + psi(d/2) - log(d/2) - psi(d0/2) + log(d0/2)}, {@code Var log s2 =
 * psi'(d/2) + psi'(d0/2)}), from the shares with at least {@value #PRIOR_MIN_COUNT} samples per
 * replicate (Pearson's statistic of smaller counts is too lumpy for its logarithm) when {@value
 * #PRIOR_MIN_SHARES} or more have them. Two replicates a side give each share 2 degrees of freedom,
 * whose log chi-square varies so much that the spread around the trend is hard to see: the point
 * estimate of {@code d0} is often infinite by chance, and then every busy share is judged by the
 * trend alone (in simulated A/A pairs at 50,000 samples a side, 8 % flagged). So the spread is
 * taken at the upper end of its one-sided 95 % confidence bound ({@link #PRIOR_BOUND_Z} standard
 * errors, from the sample's fourth moment), which gives fewer prior degrees of freedom; with more
 * replicates the bound closes in on the estimate. The moderated factor is {@code (d0 s0^2 + d_i
 * s2_i) / (d0 + d_i)}; the test refers its statistic to Student's t with {@code d0 + d_i} degrees
 * of freedom (the moderated t, or the QL F-test with one numerator degree of freedom). Each side's
 * dispersion in the test is {@code trend(m) * factor}, {@code m} the share pooled over both sides
 * times that side's samples per replicate, at least 1. A share whose own factor lies beyond the
 * prior's upper {@value #OUTLIER_TAIL} tail keeps its own factor and degrees of freedom (DESeq2's rule
 * for dispersion outliers): a method whose samples come in bursts, such as a JFR housekeeping thread
 * seen in one window of five, is not judged by the calm methods around it, which with a prior of
 * "infinite" degrees of freedom (every share on the trend) it otherwise would be. The prior's scale
 * is at least the shares' pooled factor {@code sum X2_i / sum E_trend X2_i} (a floor): {@code s0^2}
 * from the mean of the logarithms sits below the factors' mean when they spread, and with three
 * replicates a side (4 degrees of freedom a share) it could put the moderated dispersion at or below
 * binomial sampling while the data, pooled, said more. Simulated (jitter 0.2, 100 pairs a cell), the
 * floor lowered A/A pairs flagged with 3 against 3 replicates from 0.027 to 0.021 (1,000 pairs) and
 * the false discovery proportion among untouched methods when one method doubled from 0.032 to 0.016
 * (20,000 samples a side), at a cost in detection (+50 % work at 20,000 samples, 3 against 3: 0.56
 * to 0.43). One model serves method times and self
 * times, so a method whose self time is its method time is judged alike on both.
 *
 * <p>Assumptions: replicates independent and alike within a side (the trend is common to both
 * sides); a count's variance the trend's function of its mean up to each share's factor, and the
 * factors inverse chi-square around the trend; shares treated as independent in fitting the prior
 * (method times of nested methods are not, which the confidence bound partly covers). Stateless.
 */
public final class Dispersion {
    /** Samples per replicate from which a share's own estimate informs the prior. */
    public static final double PRIOR_MIN_COUNT = 5;
    /** Shares with enough samples needed to fit the prior from them alone. */
    public static final int PRIOR_MIN_SHARES = 5;
    /**
     * The prior's spread is taken at the upper end of its one-sided 95 % confidence bound (the
     * normal quantile 1.645 of the estimate's standard error): fewer prior degrees of freedom than
     * the point estimate, which with two replicates a side is often "infinite" by chance.
     */
    public static final double PRIOR_BOUND_Z = 1.645;
    /** Degrees of freedom standing for "infinite" (every share at the trend exactly). */
    public static final double MAX_DF = 1e6;
    /**
     * Upper tail of the prior beyond which a share's own dispersion is its own: not moderated, and
     * tested with its own degrees of freedom (DESeq2's dispersion outliers, there two standard
     * deviations of the log dispersion above the trend).
     */
    public static final double OUTLIER_TAIL = 0.01;

    private Dispersion() {
    }

    /**
     * Pearson's X2 of one share over the replicates of both sides.
     *
     * @param dfA replicates minus one of side A (0 when its share is 0 or 1)
     * @param countA side A's samples of the share per replicate (weighted by the replicates' samples)
     */
    record Pearson(double chiSquare, int dfA, double countA, int dfB, double countB) {
        int df() {
            return dfA + dfB;
        }

        /** Samples per replicate, averaged over the degrees of freedom. */
        double count() {
            return df() == 0 ? 0 : (dfA * countA + dfB * countB) / df();
        }
    }

    /**
     * The fitted noise model: the trend {@code a + b count^power} and the prior around it.
     *
     * @param base {@code a}: a rare share's dispersion relative to binomial sampling, at least 1
     * @param perSample {@code b}, at least 0
     * @param power the trend's exponent, between {@value #MIN_POWER} and {@value #MAX_POWER} (1: the
     *     negative binomial's variance, {@code b} then the squared coefficient of variation of a
     *     method's rate between replicates)
     * @param priorDf {@code d0}, at most {@link #MAX_DF}
     * @param priorScale {@code s0^2}
     */
    public record Model(double base, double perSample, double power, double priorDf, double priorScale) {
        /** The binomial model: no excess, no moderation. */
        public static final Model BINOMIAL = new Model(1, 0, 1, 0, 1);

        /** Dispersion relative to binomial of a share with {@code count} samples per replicate, on the trend. */
        public double trend(double count) {
            return base + perSample * Math.pow(count, power);
        }

        /**
         * The share's own factor around the trend, moderated towards the prior; an {@linkplain
         * #outlier outlier}'s own factor unmoderated.
         */
        double factor(Pearson own) {
            if (outlier(own)) {
                return ratio(own);
            }
            double own2 = own.df() == 0 ? priorScale : ratio(own);
            return (priorDf * priorScale + own.df() * own2) / (priorDf + own.df());
        }

        /**
         * Degrees of freedom of the moderated factor (an outlier's own only): 0 when there is
         * nothing to estimate from.
         */
        double degreesOfFreedom(Pearson own) {
            return outlier(own) ? own.df() : Math.min(MAX_DF, priorDf + own.df());
        }

        /**
         * Whether the share's own factor is too large for the prior: beyond its upper {@value
         * #OUTLIER_TAIL} quantile ({@code s2_i / s0^2} against F with {@code d_i} and {@code d0}
         * degrees of freedom).
         */
        boolean outlier(Pearson own) {
            return own.df() > 0 && priorDf > 0
                    && Distributions.fUpperTail(ratio(own) / priorScale, own.df(), priorDf) < OUTLIER_TAIL;
        }

        /** {@code X2_i} over its expectation on the trend. */
        double ratio(Pearson own) {
            return own.chiSquare() / (own.dfA() * trend(own.countA()) + own.dfB() * trend(own.countB()));
        }
    }

    /** Pearson's X2 of one share over the replicates of both sides. */
    static Pearson of(long[] xA, long[] nA, long[] xB, long[] nB) {
        return of(xA, nA, null, xB, nB, null);
    }

    /**
     * Pearson's X2 of one share over the replicates of both sides, each replicate's expected count
     * {@code n_j f_j pi_s} with its normalisation factor {@code f_j} ({@link Normalisation}; null:
     * all 1) and {@code pi_s} the side's normalised share.
     */
    static Pearson of(long[] xA, long[] nA, double[] fA, long[] xB, long[] nB, double[] fB) {
        double[] a = side(xA, nA, fA);
        double[] b = side(xB, nB, fB);
        return new Pearson(a[0] + b[0], (int) a[1], a[2], (int) b[1], b[2]);
    }

    /** {X2, df, count per replicate} of one side; zeros when its share is 0 or 1 or it has one replicate. */
    private static double[] side(long[] x, long[] n, double[] f) {
        long sx = 0;
        long sn = 0;
        double se = 0;
        double sn2 = 0;
        int used = 0;
        boolean equal = true;
        for (int j = 0; j < x.length; j++) {
            sx += x[j];
            sn += n[j];
            se += n[j] * factor(f, j);
            sn2 += (double) n[j] * n[j];
            used += n[j] > 0 ? 1 : 0;
            equal &= factor(f, j) == factor(f, 0);
        }
        if (sx == 0 || sx == sn || used < 2) {
            return new double[3];
        }
        double p = (double) sx / sn;
        double chi = 0;
        for (int j = 0; j < x.length; j++) {
            if (n[j] > 0) {
                // equal factors cancel within the side: the exact integer residual then
                double expected = equal ? n[j] * p : n[j] * factor(f, j) * sx / se;
                double residual = equal ? residual(x[j], n[j], sx, sn, expected) : x[j] - expected;
                chi += residual * residual / (expected * (1 - p));
            }
        }
        return new double[] {chi, used - 1, p * sn2 / sn};
    }

    private static double factor(double[] f, int j) {
        return f == null ? 1 : f[j];
    }

    /**
     * {@code x - n sx / sn}, exactly 0 when the replicate's share is the side's (replicates in
     * proportion, as stored copies are, must give X2 = 0, not rounding noise whose logarithm would
     * pass for a spread of the shares around the trend).
     */
    private static double residual(long x, long n, long sx, long sn, double expected) {
        try {
            return (double) Math.subtractExact(Math.multiplyExact(x, sn), Math.multiplyExact(n, sx)) / sn;
        } catch (ArithmeticException overflow) {
            return x - expected;
        }
    }

    /** The model fitted to every share's Pearson statistic (shares without degrees of freedom are skipped). */
    static Model fit(List<Pearson> shares) {
        Pearson[] usable = shares.stream().filter(s -> s.df() > 0).toArray(Pearson[]::new);
        if (usable.length == 0) {
            return Model.BINOMIAL;
        }
        Model onTrend = trend(usable);
        Pearson[] counted = Arrays.stream(usable).filter(s -> s.count() >= PRIOR_MIN_COUNT).toArray(Pearson[]::new);
        Pearson[] informing = counted.length >= PRIOR_MIN_SHARES ? counted : usable;
        double[] prior = prior(onTrend, informing);
        double scale = Math.max(prior[1], pooledRatio(onTrend, informing));
        return new Model(onTrend.base(), onTrend.perSample(), onTrend.power(), prior[0], scale);
    }

    /**
     * The trend: for each power on a grid from {@value #MIN_POWER} to {@value #MAX_POWER} (step
     * {@value #POWER_STEP}), {@code (a, b)} by iteratively reweighted least squares of {@code X2_i /
     * d_i} on {@code count_i^power} with weights {@code d_i / trend_i^2} (a gamma model: each share's
     * relative error counts alike), {@code a >= 1, b >= 0}; the power whose fit has the smallest
     * gamma deviance wins.
     */
    static Model trend(Pearson[] shares) {
        Model best = null;
        double bestDeviance = Double.POSITIVE_INFINITY;
        Model previous = new Model(1, 0, MIN_POWER, 0, 1);
        for (double power = MIN_POWER; power <= MAX_POWER + 1e-9; power += POWER_STEP) {
            Model m = trend(shares, power, previous);
            previous = m;
            double deviance = 0;
            for (Pearson s : shares) {
                double f = m.trend(s.count());
                deviance += s.df() * (Math.log(f) + s.chiSquare() / s.df() / f);
            }
            if (deviance < bestDeviance) {
                bestDeviance = deviance;
                best = m;
            }
        }
        return best;
    }

    /** Smallest power of the trend tried. */
    static final double MIN_POWER = 0.25;
    /** Largest power of the trend tried. */
    static final double MAX_POWER = 1.5;
    /** Step of the powers tried. */
    static final double POWER_STEP = 0.05;

    /** {a, b} for one power, starting from the fit of the power before (a few iterations then). */
    private static Model trend(Pearson[] shares, double power, Model start) {
        double[] c = new double[shares.length];
        for (int i = 0; i < shares.length; i++) {
            c[i] = Math.pow(shares[i].count(), power);
        }
        double a = start.base();
        double b = start.perSample();
        for (int iteration = 0; iteration < 100; iteration++) {
            double sw = 0;
            double swc = 0;
            double swcc = 0;
            double swy = 0;
            double swcy = 0;
            for (int i = 0; i < shares.length; i++) {
                Pearson s = shares[i];
                double f = a + b * c[i];
                double w = s.df() / (f * f);
                double y = s.chiSquare() / s.df();
                sw += w;
                swc += w * c[i];
                swcc += w * c[i] * c[i];
                swy += w * y;
                swcy += w * c[i] * y;
            }
            double det = sw * swcc - swc * swc;
            double na = det > 1e-12 * sw * swcc ? (swcc * swy - swc * swcy) / det : swy / sw;
            double nb = det > 1e-12 * sw * swcc ? (sw * swcy - swc * swy) / det : 0;
            if (nb < 0) {
                nb = 0;
                na = swy / sw;
            }
            if (na < 1) {
                na = 1;
                nb = swcc > 0 ? Math.max(0, (swcy - swc) / swcc) : 0;
            }
            boolean converged = Math.abs(na - a) <= 1e-8 * a && Math.abs(nb - b) <= 1e-8 * Math.max(b, 1e-300);
            a = na;
            b = nb;
            if (converged) {
                break;
            }
        }
        return new Model(a, b, power, 0, 1);
    }

    /** Sum of X2_i over the sum of its expectations on the trend: the shares' pooled factor. */
    static double pooledRatio(Model onTrend, Pearson[] shares) {
        double chi = 0;
        double expected = 0;
        for (Pearson s : shares) {
            chi += s.chiSquare();
            expected += s.dfA() * onTrend.trend(s.countA()) + s.dfB() * onTrend.trend(s.countB());
        }
        return expected > 0 ? chi / expected : 1;
    }

    /** {d0, s0^2} from the moments of log(X2_i / (d_i trend_i)); d0 = 0 from fewer than two shares. */
    static double[] prior(Model onTrend, Pearson[] shares) {
        int n = shares.length;
        if (n < 2) {
            return new double[] {0, 1};
        }
        double[] ratio = new double[n];
        for (int i = 0; i < n; i++) {
            ratio[i] = onTrend.ratio(shares[i]);
        }
        double[] sorted = ratio.clone();
        Arrays.sort(sorted);
        double floor = Math.max(1e-5 * sorted[n / 2], Double.MIN_NORMAL);
        double[] e = new double[n];
        double mean = 0;
        double trigammas = 0;
        for (int i = 0; i < n; i++) {
            double half = shares[i].df() / 2.0;
            e[i] = Math.log(Math.max(ratio[i], floor)) - Distributions.digamma(half) + Math.log(half);
            mean += e[i] / n;
            trigammas += Distributions.trigamma(half) / n;
        }
        double variance = 0;
        double fourth = 0;
        for (double v : e) {
            variance += (v - mean) * (v - mean) / (n - 1);
            fourth += Math.pow(v - mean, 4) / n;
        }
        double se = Math.sqrt(Math.max(0, fourth - variance * variance * (n - 3) / (n - 1)) / n);
        variance += PRIOR_BOUND_Z * se - trigammas;
        double d0 = !(variance > 0) ? MAX_DF : Math.min(MAX_DF, 2 * Distributions.trigammaInverse(variance));
        return new double[] {d0, Math.exp(mean + Distributions.digamma(d0 / 2) - Math.log(d0 / 2))};
    }
}
