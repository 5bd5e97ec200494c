package io.cctflow.bench.significance;

import java.util.Locale;

/**
 * Prints the A/A false-positive rates and the detection-rate tables of the per-method comparison
 * ({@link SignificanceSimulation}): rows by samples per side, columns by replicates (A/A) or by the
 * slowed method's extra work (detection). Arguments: pairs per cell (default 200), seed (default 29).
 */
public final class SignificanceBenchmark {
    static final int[] SAMPLES = {500, 1000, 2000, 5000, 10_000, 20_000, 50_000};
    static final double[] EFFECTS = {0.05, 0.10, 0.20, 0.50};
    static final double SHARE = 0.10;
    static final double JITTER = 0.2;
    static final double DILUTED_SHARE = 0.15;
    static final int[] SMALL_SAMPLES = {500, 2000};
    static final int SMALL_PAIRS = 1000;

    private SignificanceBenchmark() {
    }

    public static void main(String[] args) {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 29;
        System.out.printf(Locale.ROOT, "A/A pairs with any significant method (FDR 5 %%), %d pairs per cell%n", pairs);
        // with 1 replicate a side the comparison withholds its labels: that column counts what the
        // binomial model's q-values would have labelled
        System.out.println("| samples/side | binomial, 1 replicate | 2 vs 2, jitter 0.2 | 2 vs 3 | 3 vs 3 | 4 vs 4"
                + " | 4 vs 4 pooled as 1 |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
        for (int n : SAMPLES) {
            System.out.printf(Locale.ROOT, "| %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |%n", n,
                    aa(new SignificanceSimulation.Setup(n, 1, 0), pairs, seed + n),
                    aa(new SignificanceSimulation.Setup(n, 2, JITTER), pairs, seed + n),
                    aa(new SignificanceSimulation.Setup(n, 2, 3, JITTER), pairs, seed + n),
                    aa(new SignificanceSimulation.Setup(n, 3, JITTER), pairs, seed + n),
                    aa(new SignificanceSimulation.Setup(n, 4, JITTER), pairs, seed + n),
                    SignificanceSimulation.anySignificantRate(new SignificanceSimulation.Setup(n, 4, JITTER), pairs,
                            seed + n, true));
        }
        smallReplicates(Math.max(pairs, SMALL_PAIRS), seed);
        detection("binomial model, 1 replicate a side (q-value at most 5 % and the share up, labels being"
                + " withheld)", 1, 0, pairs, seed);
        detection("2 replicates a side, jitter 0.2", 2, JITTER, pairs, seed);
        detection("4 replicates a side, jitter 0.2", 4, JITTER, pairs, seed);
        dilution(pairs, seed);
    }

    /**
     * A/A pairs of the fewest replicates at the fewest samples, where the normalisation factors rest
     * on the sparsest counts: at least {@link #SMALL_PAIRS} pairs a cell (the binomial standard
     * deviation of a rate near 0.05 over 200 pairs is 0.015, too much to tell 0.08 from 0.05).
     */
    private static void smallReplicates(int pairs, long seed) {
        System.out.printf(Locale.ROOT, "%nA/A pairs with any significant method, few replicates, %d pairs per cell,"
                + " jitter 0.2%n", pairs);
        System.out.println("| samples/side | 2 vs 2 | 2 vs 3 | 3 vs 2 | 3 vs 3 |");
        System.out.println("|---:|---:|---:|---:|---:|");
        for (int n : SMALL_SAMPLES) {
            StringBuilder row = new StringBuilder("| " + n + " |");
            for (int[] r : new int[][] {{2, 2}, {2, 3}, {3, 2}, {3, 3}}) {
                row.append(String.format(Locale.ROOT, " %.3f |", aa(new SignificanceSimulation.Setup(n, r[0], r[1],
                        JITTER), pairs, seed + 5000 + n + 10L * r[0] + r[1])));
            }
            System.out.println(row);
        }
    }

    /**
     * A/B pairs with the method nearest {@link #DILUTED_SHARE} of self time doing twice the work on
     * side B: the false discovery proportion among the methods it leaves alone (no changed stack
     * through them), the fraction of pairs with any of them significant, and the slowed method
     * found.
     */
    private static void dilution(int pairs, long seed) {
        System.out.printf(Locale.ROOT, "%nDilution: the method nearest %.0f %% self time does twice the work on side B;"
                + " methods on none of its stacks: mean false discovery proportion / pairs with any significant"
                + " (slowed method found), %d pairs per cell, jitter 0.2%n", DILUTED_SHARE * 100, pairs);
        System.out.println("| samples/side | 2 vs 2 | 3 vs 3 | 4 vs 4 |");
        System.out.println("|---:|---:|---:|---:|");
        for (int n : SAMPLES) {
            StringBuilder row = new StringBuilder("| " + n + " |");
            for (int r = 2; r <= 4; r++) {
                SignificanceSimulation.Dilution d = SignificanceSimulation.dilution(
                        new SignificanceSimulation.Setup(n, r, JITTER), DILUTED_SHARE, 1.0, true, pairs, seed + n + r);
                row.append(String.format(Locale.ROOT, " %.3f / %.2f (%.2f) |", d.falseDiscoveries(), d.anyFlagged(),
                        d.targetFound()));
            }
            System.out.println(row);
        }
    }

    private static double aa(SignificanceSimulation.Setup setup, int pairs, long seed) {
        return SignificanceSimulation.anySignificantRate(setup, pairs, seed);
    }

    /** One detection table: method time of the method nearest {@link #SHARE} slowed on side B. */
    private static void detection(String model, int replicates, double jitter, int pairs, long seed) {
        System.out.printf(Locale.ROOT, "%nDetection: method time of the method nearest %.0f %% method time slowed by"
                + " the effect on side B, significant and labelled REGRESSION (ranked first), %d pairs per cell, %s%n",
                SHARE * 100, pairs, model);
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
                        new SignificanceSimulation.Setup(n, replicates, jitter), SHARE, e, pairs,
                        seed + n + Math.round(e * 1000));
                row.append(String.format(Locale.ROOT, " %.2f (%.2f) |", d.detected(), d.rankedFirst()));
            }
            System.out.println(row);
        }
    }
}
