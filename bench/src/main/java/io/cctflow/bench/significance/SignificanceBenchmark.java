package io.cctflow.bench.significance;

import java.util.Locale;

/**
 * Prints the A/A false-positive rates and the detection-rate table of the per-method comparison
 * ({@link SignificanceSimulation}): rows by samples per side, columns by the slowed method's extra
 * work. Arguments: pairs per cell (default 200), seed (default 29).
 */
public final class SignificanceBenchmark {
    static final int[] SAMPLES = {500, 1000, 2000, 5000, 10_000, 20_000, 50_000};
    static final double[] EFFECTS = {0.05, 0.10, 0.20, 0.50};
    static final double SHARE = 0.10;

    private SignificanceBenchmark() {
    }

    public static void main(String[] args) {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 29;
        System.out.printf(Locale.ROOT, "A/A pairs with any significant method (FDR 5 %%), %d pairs per row%n", pairs);
        // with 1 replicate a side the comparison withholds its labels: those columns count what the
        // binomial model's q-values would have labelled
        System.out.println("| samples/side | binomial, 1 replicate | 4 replicates, jitter 0.2 | same, pooled as 1 |");
        System.out.println("|---:|---:|---:|---:|");
        for (int n : SAMPLES) {
            System.out.printf(Locale.ROOT, "| %d | %.3f | %.3f | %.3f |%n", n,
                    SignificanceSimulation.anySignificantRate(new SignificanceSimulation.Setup(n, 1, 0), pairs, seed + n),
                    SignificanceSimulation.anySignificantRate(new SignificanceSimulation.Setup(n, 4, 0.2), pairs, seed + n),
                    pooledRate(n, pairs, seed + n));
        }
        System.out.printf(Locale.ROOT, "%nDetection: method time of the method nearest %.0f %% method time slowed by"
                + " the effect on side B, significant and labelled REGRESSION (ranked first), %d pairs per cell,"
                + " binomial model (1 replicate: q-value at most 5 %% and the share up, labels being withheld)%n",
                SHARE * 100, pairs);
        StringBuilder head = new StringBuilder("| samples/side |");
        StringBuilder rule = new StringBuilder("|---:|");
        for (double e : EFFECTS) {
            head.append(String.format(Locale.ROOT, " +%.0f %% work |", e * 100));
            rule.append("---:|");
        }
        System.out.println(head);
        System.out.println(rule);
        for (int n : SAMPLES) {
            StringBuilder row = new StringBuilder("| " + n + " |");
            for (double e : EFFECTS) {
                SignificanceSimulation.Detection d = SignificanceSimulation.detectionRate(
                        new SignificanceSimulation.Setup(n, 1, 0), SHARE, e, pairs, seed + n + Math.round(e * 1000));
                row.append(String.format(Locale.ROOT, " %.2f (%.2f) |", d.detected(), d.rankedFirst()));
            }
            System.out.println(row);
        }
    }

    /** The over-dispersed replicates of the middle column summed into one: what ignoring them gives. */
    private static double pooledRate(int n, int pairs, long seed) {
        return SignificanceSimulation.anySignificantRate(new SignificanceSimulation.Setup(n, 4, 0.2), pairs, seed,
                true);
    }
}
