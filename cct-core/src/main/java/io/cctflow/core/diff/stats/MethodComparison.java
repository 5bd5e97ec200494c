package io.cctflow.core.diff.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every method's method time and self time compared between two sides, each with its counts,
 * interval and p-value, and the false discovery rate controlled across all of them
 * (Benjamini-Hochberg over every share tested: two per method).
 *
 * <p><b>Model.</b> A side is one or more replicates (instances or time windows). Samples are
 * counted as binomial draws (each sample falls in the method with the side's share); JFR's periodic
 * samples of one thread are positively correlated (a long call is sampled several times in a row),
 * and windows and instances differ beyond sampling, so the binomial model understates the noise
 * (measured over-dispersion between the windows of one JVM: 1.0-2.7). With two or more replicates
 * on <em>each</em> side ({@value #REPLICATES}), the noise is estimated from the variation of the
 * shares between replicates: a dispersion trend over a share's samples per replicate, fitted over
 * every method's method time and self time, and each share's own dispersion moderated towards it
 * by empirical Bayes ({@link Dispersion}); each share is then tested with the quasi-binomial test
 * ({@link ShareTest#quasiBinomial}) at its moderated dispersion and degrees of freedom, its shares
 * normalised against the unchanged bulk: each replicate's TMM factor from the self samples ({@link
 * Normalisation}) scales its samples, in the replicates' Pearson statistics and in the test, so
 * one method's growth does not show as every other method's fall. Otherwise
 * ({@value #WITHHELD}) nothing is labelled: the numbers are those of the binomial model ({@link
 * ShareTest#binomial}), which order the methods, but every measure is {@link Change#WITHHELD} and
 * none significant. Neither side alone will do: one side's
 * estimate, its excess over 1 scaled to the other side's replicate size, reported noise as a
 * change in 8 % (4 replicates against 1 of four times the size) to 11 % (1 against 3) of simulated
 * A/A pairs, above the 5 % level. Only shares of enough samples, and with enough samples outside
 * them, are tested ({@link ExpressionFilter}, edgeR's {@code filterByExpr}); the rest keep their
 * numbers with a q-value of 1. Replicates are assumed independent and alike within a side; more
 * than {@value #MAX_REPLICATES} are merged in order into that many groups, which keeps the cost
 * bounded.
 *
 * <p>Shares are relative: a method's share can rise because others fell. Thread-safe (stateless).
 */
public final class MethodComparison {
    /** Default false discovery rate. */
    public static final double DEFAULT_LEVEL = 0.05;
    /** Confidence of the intervals. */
    public static final double CONFIDENCE = 0.95;
    /** Replicates per side beyond which neighbours are merged. */
    public static final int MAX_REPLICATES = 32;
    /** Noise model: both sides' replicates. */
    public static final String REPLICATES = "replicates";
    /** Noise model: a side with fewer than two replicates, labels withheld. */
    public static final String WITHHELD = "withheld";
    /** What a comparison without replicates says instead of a verdict. */
    public static final String WITHHELD_MESSAGE = "too few replicates to estimate noise; labels withheld";

    private MethodComparison() {
    }

    /**
     * What the noise estimate rests on.
     *
     * @param model {@value #REPLICATES} or {@value #WITHHELD}
     * @param dispersion the fitted noise model ({@link Dispersion.Model#BINOMIAL} when withheld)
     * @param normA side A's normalisation factor: its effective samples over its samples (the sum of
     *     its replicates' {@code n f} over the sum of their {@code n}; 1 when withheld)
     * @param normB side B's
     */
    public record Noise(String model, int replicatesA, int replicatesB, Dispersion.Model dispersion, double normA,
            double normB) {

        /** Whether there was nothing to estimate the noise from, so no change is labelled. */
        public boolean labelsWithheld() {
            return WITHHELD.equals(model);
        }
    }

    /**
     * @param level the false discovery rate
     * @param tested shares counted by the multiple-testing adjustment
     * @param methods every method on either side, most significant first
     */
    public record Result(double level, Noise noise, int tested, int significant, List<MethodChange> methods) {

        /** Whether any method's method time or self time changed significantly. */
        public boolean anySignificant() {
            return significant > 0;
        }

        /**
         * Whether any share's q-value is at most the level, labelled or not: with labels withheld,
         * what the binomial model alone would have called significant.
         */
        public boolean anyBelowLevel() {
            return methods.stream().anyMatch(c -> c.methodTime().qValue() <= level || c.selfTime().qValue() <= level);
        }
    }

    /**
     * @param a replicates of side A (the baseline), at least one
     * @param b replicates of side B
     * @param level false discovery rate, in (0, 1)
     */
    public static Result compare(List<MethodSamples> a, List<MethodSamples> b, double level) {
        if (a.isEmpty() || b.isEmpty()) {
            throw new IllegalArgumentException("each side needs at least one replicate");
        }
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("false discovery rate must be in (0, 1), got " + level);
        }
        Replicates ra = Replicates.of(merge(a));
        Replicates rb = Replicates.of(merge(b));
        long[] ids = union(ra.pooled().methodIds(), rb.pooled().methodIds());
        long[][] method = {ra.pooledColumn(ids, true), rb.pooledColumn(ids, true)};
        long[][] self = {ra.pooledColumn(ids, false), rb.pooledColumn(ids, false)};
        long nA = ra.pooled().samples();
        long nB = rb.pooled().samples();
        int m = ids.length;
        ShareChange[] changes = new ShareChange[2 * m];
        long[][][] xa = {ra.columns(ids, true), ra.columns(ids, false)};
        long[][][] xb = {rb.columns(ids, true), rb.columns(ids, false)};
        long[] sa = ra.samples();
        long[] sb = rb.samples();
        ExpressionFilter filter = new ExpressionFilter(sa, sb);
        boolean[] tested = new boolean[2 * m];
        for (int h = 0; h < 2 * m; h++) {
            tested[h] = filter.tested(xa[h % 2][h / 2], xb[h % 2][h / 2]);
        }
        Noise noise;
        if (ra.size() < 2 || rb.size() < 2) {
            for (int i = 0; i < m; i++) {
                changes[2 * i] = ShareTest.binomial(method[0][i], nA, method[1][i], nB, CONFIDENCE);
                changes[2 * i + 1] = ShareTest.binomial(self[0][i], nA, self[1][i], nB, CONFIDENCE);
            }
            noise = new Noise(WITHHELD, ra.size(), rb.size(), Dispersion.Model.BINOMIAL, 1, 1);
        } else {
            double[] f = factors(xa[1], sa, xb[1], sb);
            double[] fa = Arrays.copyOf(f, sa.length);
            double[] fb = Arrays.copyOfRange(f, sa.length, f.length);
            double normA = effective(sa, fa) / nA;
            double normB = effective(sb, fb) / nB;
            List<Dispersion.Pearson> own = new ArrayList<>(2 * m);
            for (int h = 0; h < 2 * m; h++) {
                own.add(Dispersion.of(xa[h % 2][h / 2], sa, fa, xb[h % 2][h / 2], sb, fb));
            }
            Dispersion.Model model = Dispersion.fit(atMostHalf(own, method, self, nA + nB));
            double sizeA = ra.meanSize();
            double sizeB = rb.meanSize();
            Map<Double, Double> quantiles = new HashMap<>();
            for (int h = 0; h < 2 * m; h++) {
                long[][] x = h % 2 == 0 ? method : self;
                long cA = x[0][h / 2];
                long cB = x[1][h / 2];
                Dispersion.Pearson p = own.get(h);
                double df = model.degreesOfFreedom(p);
                if (df == 0) {
                    changes[h] = ShareTest.binomial(cA, nA, cB, nB, CONFIDENCE);
                    continue;
                }
                double share = (double) (cA + cB) / (nA + nB);
                double factor = model.factor(p);
                double q = quantiles.computeIfAbsent(df, v -> Distributions.studentQuantile(CONFIDENCE, v));
                changes[h] = ShareTest.quasiBinomial(cA, nA, cB, nB,
                        Math.max(1, model.trend(share * sizeA) * factor),
                        Math.max(1, model.trend(share * sizeB) * factor), df, q, normA, normB);
            }
            noise = new Noise(REPLICATES, ra.size(), rb.size(), model, normA, normB);
        }
        return verdicts(ids, changes, tested, level, noise);
    }

    /**
     * Every replicate's TMM factor ({@link Normalisation}) from the self samples of both sides'
     * replicates, A's first.
     *
     * @param selfA per method, its self samples in each replicate of side A
     */
    static double[] factors(long[][] selfA, long[] samplesA, long[][] selfB, long[] samplesB) {
        int ra = samplesA.length;
        long[][] counts = new long[ra + samplesB.length][];
        long[] samples = new long[counts.length];
        for (int j = 0; j < counts.length; j++) {
            long[][] self = j < ra ? selfA : selfB;
            int k = j < ra ? j : j - ra;
            counts[j] = new long[self.length];
            for (int i = 0; i < self.length; i++) {
                counts[j][i] = self[i][k];
            }
            samples[j] = j < ra ? samplesA[j] : samplesB[k];
        }
        return Normalisation.factors(counts, samples);
    }

    /**
     * The shares the trend and prior are fitted to: those holding at most half of both sides'
     * samples. Above that a share is its complement seen from the other end, and normalised it is
     * mostly {@code 1 / f}: its scatter between replicates is the factors' noise over a binomial
     * variance that {@code 1 - p} makes tiny (the demo's {@code handleRequest}, on 99.5 % of the
     * stacks), and at the highest counts it would set the trend for every busy method (with them
     * in the fit, one demo run's trend was 64 at 1,000 samples a replicate and {@code priceCart}
     * was not significant). They keep their own statistic, so they are judged by their own
     * scatter (an outlier of the prior).
     */
    private static List<Dispersion.Pearson> atMostHalf(List<Dispersion.Pearson> own, long[][] method,
            long[][] self, long samples) {
        List<Dispersion.Pearson> out = new ArrayList<>(own.size());
        for (int h = 0; h < own.size(); h++) {
            long[][] x = h % 2 == 0 ? method : self;
            if (2 * (x[0][h / 2] + x[1][h / 2]) <= samples) {
                out.add(own.get(h));
            }
        }
        return out;
    }

    /** Sum of n_j f_j. */
    private static double effective(long[] samples, double[] factors) {
        double sum = 0;
        for (int j = 0; j < samples.length; j++) {
            sum += samples[j] * factors[j];
        }
        return sum;
    }

    /**
     * BH over every share that passes the {@link ExpressionFilter} and can reach the level, then
     * labels and the order.
     */
    private static Result verdicts(long[] ids, ShareChange[] changes, boolean[] expressed, double level,
            Noise noise) {
        double[] p = new double[changes.length];
        boolean[] testable = new boolean[changes.length];
        int tested = 0;
        for (int h = 0; h < changes.length; h++) {
            ShareChange c = changes[h];
            p[h] = c.pValue();
            testable[h] = expressed[h] && FisherExact.canReach(c.samplesA(), c.samplesB(), c.countA() + c.countB(), level);
            tested += testable[h] ? 1 : 0;
        }
        double[] q = BenjaminiHochberg.qValues(p, testable);
        List<MethodChange> out = new ArrayList<>(ids.length);
        int significant = 0;
        for (int i = 0; i < ids.length; i++) {
            MethodChange mc = new MethodChange(ids[i], measure(changes[2 * i], q[2 * i], level, noise),
                    measure(changes[2 * i + 1], q[2 * i + 1], level, noise));
            significant += mc.significant() ? 1 : 0;
            out.add(mc);
        }
        out.sort(ORDER);
        return new Result(level, noise, tested, significant, List.copyOf(out));
    }

    /** Most significant first: q-value, then p-value, then the larger |delta|, then method id. */
    static final Comparator<MethodChange> ORDER = Comparator
            .comparingDouble((MethodChange c) -> c.strongest().qValue())
            .thenComparingDouble(c -> c.strongest().change().pValue())
            .thenComparing(Comparator.comparingDouble((MethodChange c) -> Math.abs(c.strongest().change().delta()))
                    .reversed())
            .thenComparingLong(MethodChange::method);

    private static Measure measure(ShareChange c, double q, double level, Noise noise) {
        if (noise.labelsWithheld()) {
            return new Measure(c, q, false, Change.WITHHELD);
        }
        boolean significant = q <= level;
        return new Measure(c, q, significant, Change.of(significant, c.delta()));
    }

    /** At most {@link #MAX_REPLICATES}: neighbours merged into groups of near-equal count, order kept. */
    static List<MethodSamples> merge(List<MethodSamples> replicates) {
        int r = replicates.size();
        if (r <= MAX_REPLICATES) {
            return replicates;
        }
        List<MethodSamples> out = new ArrayList<>(MAX_REPLICATES);
        for (int g = 0; g < MAX_REPLICATES; g++) {
            out.add(sum(replicates.subList(g * r / MAX_REPLICATES, (g + 1) * r / MAX_REPLICATES)));
        }
        return out;
    }

    /** The per-method sum of replicates. */
    public static MethodSamples sum(List<MethodSamples> parts) {
        long[] ids = new long[0];
        for (MethodSamples s : parts) {
            ids = union(ids, s.methodIds());
        }
        long[] method = new long[ids.length];
        long[] self = new long[ids.length];
        long samples = 0;
        for (MethodSamples s : parts) {
            samples += s.samples();
            int k = 0;
            for (int i = 0; i < s.methodIds().length; i++) {
                while (ids[k] != s.methodIds()[i]) {
                    k++;
                }
                method[k] += s.methodSamples()[i];
                self[k] += s.selfSamples()[i];
            }
        }
        return new MethodSamples(ids, method, self, samples);
    }

    /** Sorted union of two sorted id arrays. */
    static long[] union(long[] x, long[] y) {
        long[] out = new long[x.length + y.length];
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < x.length || j < y.length) {
            long v;
            if (j >= y.length || (i < x.length && x[i] < y[j])) {
                v = x[i++];
            } else if (i >= x.length || y[j] < x[i]) {
                v = y[j++];
            } else {
                v = x[i++];
                j++;
            }
            out[n++] = v;
        }
        return Arrays.copyOf(out, n);
    }

    /** One side's replicates and their pooled sum. */
    private record Replicates(List<MethodSamples> list, MethodSamples pooled) {
        static Replicates of(List<MethodSamples> list) {
            return new Replicates(list, list.size() == 1 ? list.get(0) : sum(list));
        }

        int size() {
            return list.size();
        }

        long[] samples() {
            return list.stream().mapToLong(MethodSamples::samples).toArray();
        }

        /** Samples per replicate, each replicate weighted by its samples: sum n_j^2 / sum n_j. */
        double meanSize() {
            double squares = 0;
            for (MethodSamples s : list) {
                squares += (double) s.samples() * s.samples();
            }
            return squares / pooled.samples();
        }

        /** The pooled counts of {@code ids} (a superset of the side's methods). */
        long[] pooledColumn(long[] ids, boolean method) {
            return align(pooled, ids, method);
        }

        /** Per method of {@code ids}, its counts in each replicate. */
        long[][] columns(long[] ids, boolean method) {
            long[][] out = new long[ids.length][list.size()];
            for (int j = 0; j < list.size(); j++) {
                long[] col = align(list.get(j), ids, method);
                for (int i = 0; i < ids.length; i++) {
                    out[i][j] = col[i];
                }
            }
            return out;
        }

        private static long[] align(MethodSamples s, long[] ids, boolean method) {
            long[] out = new long[ids.length];
            long[] src = method ? s.methodSamples() : s.selfSamples();
            int k = 0;
            for (int i = 0; i < s.methodIds().length; i++) {
                while (ids[k] != s.methodIds()[i]) {
                    k++;
                }
                out[k] = src[i];
            }
            return out;
        }
    }
}
