package io.cctflow.query.alerting;

import io.cctflow.core.diff.stats.MethodChange;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.MethodSamples;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The K methods whose method time shifted most between two profiles <em>among those whose shift is
 * significant</em>: the compare endpoint's test ({@link MethodComparison}: binomial sampling with one
 * replicate per side, over-dispersion from the instances or windows when there are several, the
 * false discovery rate controlled across every method compared), so a shift series, and the alert
 * on it, never stands for sampling noise. The shift is that test's normalised change, the compare
 * endpoint's {@code methodTime.delta} ({@link MethodShift#of}), not the raw difference of shares:
 * a method whose share fell only because another grew neither shifts nor is exported. Ordered by
 * absolute shift, ties by method id (ascending), so the result is deterministic. A method sampled
 * on one side only counts with 0 samples on the other. Stateless.
 */
public final class ShiftRanking {
    /** Largest absolute shift first; equal shifts by ascending method id. */
    static final Comparator<MethodShift> ORDER = Comparator
            .comparingDouble((MethodShift s) -> Math.abs(s.shift())).reversed()
            .thenComparingLong(MethodShift::methodId);

    private ShiftRanking() {
    }

    /**
     * The top {@code k} significant shifts from {@code baseline} to {@code current}, per method id,
     * using the recursion-aware method samples the counts carry and the replicates' samples as
     * denominators.
     *
     * @param current the current deployment's replicates (its instances or windows), at least one
     * @param fdr false discovery rate of the test
     * @return at most {@code k} shifts, ordered by {@link #ORDER}; empty when either side has no samples
     */
    public static List<MethodShift> significant(List<MethodSamples> current, List<MethodSamples> baseline,
            double fdr, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
        if (samples(current) == 0 || samples(baseline) == 0) {
            return List.of();
        }
        List<MethodShift> out = new ArrayList<>();
        for (MethodChange c : MethodComparison.compare(baseline, current, fdr).methods()) {
            if (c.methodTime().significant()) {
                out.add(MethodShift.of(c.method(), c.methodTime().change()));
            }
        }
        out.sort(ORDER);
        return out.size() > k ? List.copyOf(out.subList(0, k)) : out;
    }

    private static long samples(List<MethodSamples> side) {
        return side.stream().mapToLong(MethodSamples::samples).sum();
    }
}
