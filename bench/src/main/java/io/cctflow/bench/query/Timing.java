package io.cctflow.bench.query;

import io.cctflow.bench.overhead.Quantiles;
import java.util.Arrays;
import java.util.List;

/**
 * The timed calls of one figure: wall milliseconds of each, the first (cold) call apart, and the
 * goal, which applies to {@code goalQuantile} of the timed calls (0.95: p95, 0.5: median).
 * Immutable.
 */
record Timing(String what, String detail, double firstMillis, List<Double> millis, double goalQuantile,
        double goalMillis) {

    double quantile(double p) {
        double[] sorted = millis.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return Quantiles.at(sorted, p);
    }

    boolean met() {
        return quantile(goalQuantile) < goalMillis;
    }

    String goal() {
        return (goalQuantile == 0.5 ? "median" : "p" + Math.round(goalQuantile * 100)) + " < " + format(goalMillis);
    }

    /** E.g. "p50 120 ms, p95 250 ms (n = 20, 98..260 ms); first call 900 ms". */
    String summary() {
        return String.format("p50 %s, p95 %s (n = %d, %s..%s); first call %s", format(quantile(0.5)),
                format(quantile(0.95)), millis.size(), format(quantile(0)), format(quantile(1)), format(firstMillis));
    }

    static String format(double millis) {
        return millis < 1000 ? String.format("%.0f ms", millis) : String.format("%.2f s", millis / 1000);
    }
}
