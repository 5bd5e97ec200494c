package io.cctflow.bench.overhead;

import java.util.Arrays;
import java.util.List;

/** Median, quartiles and range of a sample, by linear interpolation between order statistics. */
public record Quantiles(int n, double min, double q1, double median, double q3, double max) {

    /** @throws IllegalArgumentException if {@code values} is empty */
    public static Quantiles of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return new Quantiles(sorted.length, sorted[0], at(sorted, 0.25), at(sorted, 0.5), at(sorted, 0.75),
                sorted[sorted.length - 1]);
    }

    /** The p-quantile of sorted values (type 7, as R and NumPy by default). */
    public static double at(double[] sorted, double p) {
        double h = (sorted.length - 1) * p;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }

    /**
     * A distribution-free confidence interval of the median: the order statistics
     * {@code x(l) .. x(n+1-l)} (1-based, of the sorted values) with the largest {@code l} such that
     * the number of values below the true median, Binomial(n, 1/2), lies in {@code [l, n-l]} with
     * probability at least {@code level}. Assumes independent values.
     *
     * @return {@code {low, high}}; the whole range when {@code n} is too small for the level
     * @throws IllegalArgumentException if {@code values} is empty or {@code level} not in (0, 1)
     */
    public static double[] medianInterval(List<Double> values, double level) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no values");
        }
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1), was " + level);
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        int l = medianIntervalRank(sorted.length, level);
        return new double[] {sorted[l - 1], sorted[sorted.length - l]};
    }

    /**
     * The 1-based rank {@code l} of {@link #medianInterval}: the largest {@code l >= 1} with
     * {@code P(l <= B <= n - l) >= level} for {@code B ~ Binomial(n, 1/2)}, or 1 if none.
     */
    static int medianIntervalRank(int n, double level) {
        // P(B = k) for k = 0..n, computed in logs so large n does not overflow
        double[] p = new double[n + 1];
        for (int k = 0; k <= n; k++) {
            p[k] = Math.exp(logChoose(n, k) - n * Math.log(2));
        }
        int best = 1;
        for (int l = 1; 2 * l <= n; l++) {
            double inside = 0;
            for (int k = l; k <= n - l; k++) {
                inside += p[k];
            }
            if (inside >= level) {
                best = l;
            } else {
                break;
            }
        }
        return best;
    }

    /** Student's t quantile t(0.975, df) for df = 1..30. */
    private static final double[] T_975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060,
        2.056, 2.052, 2.048, 2.045, 2.042};
    private static final double Z_975 = 1.959964;

    /**
     * The 95 % confidence interval of the mean by Student's t: {@code mean ± t(0.975, n-1) s / sqrt(n)},
     * with {@code s} the sample standard deviation. Assumes independent values from a roughly normal
     * distribution: for a few values (e.g. one per round of fresh JVMs) where the order statistics
     * of {@link #medianInterval} can only give the whole range.
     *
     * @return {@code {low, high}}
     * @throws IllegalArgumentException if there are fewer than two values
     */
    public static double[] meanInterval95(List<Double> values) {
        int n = values.size();
        if (n < 2) {
            throw new IllegalArgumentException("a mean's interval needs at least 2 values, got " + n);
        }
        double mean = mean(values);
        double half = t975(n - 1) * standardDeviation(values) / Math.sqrt(n);
        return new double[] {mean - half, mean + half};
    }

    /** @throws java.util.NoSuchElementException if {@code values} is empty */
    public static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    /** The sample standard deviation (divided by {@code n - 1}); needs at least two values. */
    public static double standardDeviation(List<Double> values) {
        if (values.size() < 2) {
            throw new IllegalArgumentException("a standard deviation needs at least 2 values, got " + values.size());
        }
        double mean = mean(values);
        double squares = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
        return Math.sqrt(squares / (values.size() - 1));
    }

    /** t(0.975, df): the table up to 30, then the first two Cornish-Fisher terms (within 0.001 of the true value). */
    static double t975(int df) {
        if (df < 1) {
            throw new IllegalArgumentException("degrees of freedom must be positive, was " + df);
        }
        if (df <= T_975.length) {
            return T_975[df - 1];
        }
        double z = Z_975;
        double z3 = z * z * z;
        return z + (z3 + z) / (4.0 * df) + (5 * z3 * z * z + 16 * z3 + 3 * z) / (96.0 * df * df);
    }

    private static double logChoose(int n, int k) {
        double sum = 0;
        for (int i = 1; i <= k; i++) {
            sum += Math.log(n - k + i) - Math.log(i);
        }
        return sum;
    }
}
