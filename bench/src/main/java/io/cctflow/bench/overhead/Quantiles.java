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

    private static double logChoose(int n, int k) {
        double sum = 0;
        for (int i = 1; i <= k; i++) {
            sum += Math.log(n - k + i) - Math.log(i);
        }
        return sum;
    }
}
