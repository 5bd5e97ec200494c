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
}
