package io.cctflow.bench.overhead;

import java.util.ArrayList;
import java.util.List;

/**
 * Ratios of two setups' rates over the measured cycles of a round. A cycle is one slice of every
 * setup, seconds apart, indexed by {@link Setup#ordinal()} ({@code null} for setups not run), so
 * the ratio of one cycle compares children that ran under nearly the same machine conditions.
 * Stateless.
 */
final class CycleRatios {
    private CycleRatios() {
    }

    /**
     * {@code rate(a) / rate(b)} of each cycle, in cycle order.
     *
     * @throws IllegalArgumentException if a cycle lacks {@code a} or {@code b}
     */
    static List<Double> perCycle(List<Slice[]> cycles, Setup a, Setup b, Slice.Rate rate) {
        List<Double> ratios = new ArrayList<>(cycles.size());
        for (Slice[] cycle : cycles) {
            ratios.add(rate.of(slice(cycle, a)) / rate.of(slice(cycle, b)));
        }
        return ratios;
    }

    /**
     * The within-JVM ratio of an agent attached between {@code before} and {@code after} to child
     * {@code a}: each cycle's {@code rate(a) / rate(b)} after the attach, divided by the median of
     * those ratios before it. {@code b} gets no agent, so machine drift cancels in each cycle and
     * both children's JVM-specific speed cancels between the phases. In {@code after}'s cycle order.
     *
     * @throws IllegalArgumentException if {@code before} is empty or a cycle lacks {@code a} or {@code b}
     */
    static List<Double> afterOverBefore(List<Slice[]> before, List<Slice[]> after, Setup a, Setup b,
            Slice.Rate rate) {
        if (before.isEmpty()) {
            throw new IllegalArgumentException("no cycle before the attach");
        }
        double base = Quantiles.of(perCycle(before, a, b, rate)).median();
        List<Double> ratios = perCycle(after, a, b, rate);
        ratios.replaceAll(r -> r / base);
        return ratios;
    }

    /**
     * How far {@code rate(a) / rate(b)} moved within {@code cycles}: the median of the later half's
     * per-cycle ratios over the median of the earlier half's, minus 1 (with an odd count the later
     * half has the extra cycle). Before an attach, the ratio's median is the base that every later
     * cycle is divided by ({@link #afterOverBefore}); a base that moves within its own phase is no
     * base, whatever happens after it.
     *
     * @throws IllegalArgumentException with fewer than 2 cycles or if a cycle lacks {@code a} or {@code b}
     */
    static double drift(List<Slice[]> cycles, Setup a, Setup b, Slice.Rate rate) {
        if (cycles.size() < 2) {
            throw new IllegalArgumentException("a drift needs 2 cycles or more, got " + cycles.size());
        }
        List<Double> ratios = perCycle(cycles, a, b, rate);
        int half = ratios.size() / 2;
        return Quantiles.of(ratios.subList(half, ratios.size())).median()
                / Quantiles.of(ratios.subList(0, half)).median() - 1;
    }

    /**
     * The ratio of the two setups' rates over all cycles together: (Σ ops of a / Σ denominator of
     * a) / (Σ ops of b / Σ denominator of b). Unlike a median of per-cycle ratios this charges
     * every operation and every nanosecond, including rare costly slices.
     *
     * @throws IllegalArgumentException if there are no cycles or one lacks {@code a} or {@code b}
     */
    static double ofSums(List<Slice[]> cycles, Setup a, Setup b, Slice.Rate rate) {
        if (cycles.isEmpty()) {
            throw new IllegalArgumentException("no cycles");
        }
        return rateOfSums(cycles, a, rate) / rateOfSums(cycles, b, rate);
    }

    /** Operations per second of {@code rate}'s denominator, summed over all cycles, of setup {@code s}. */
    static double rateOfSums(List<Slice[]> cycles, Setup s, Slice.Rate rate) {
        long ops = 0;
        long denominator = 0;
        for (Slice[] cycle : cycles) {
            Slice slice = slice(cycle, s);
            ops += slice.ops();
            denominator += rate.denominator(slice);
        }
        return ops * 1e9 / denominator;
    }

    private static Slice slice(Slice[] cycle, Setup s) {
        Slice slice = cycle[s.ordinal()];
        if (slice == null) {
            throw new IllegalArgumentException("a cycle has no slice of " + s.label);
        }
        return slice;
    }

    /**
     * The cycles in which every slice was {@linkplain Slice#quiet quiet}: the rest of the machine
     * used less than {@code share} of its {@code cores} while any child of the cycle ran. The choice
     * depends on the other parties' CPU only (the benchmark's own processes, broker included, are
     * not counted), never on what a child did, so it favours no setup.
     */
    static List<Slice[]> quiet(List<Slice[]> cycles, double share, int cores) {
        List<Slice[]> quiet = new ArrayList<>();
        for (Slice[] cycle : cycles) {
            boolean all = true;
            for (Slice s : cycle) {
                if (s != null && !s.quiet(share, cores)) {
                    all = false;
                    break;
                }
            }
            if (all) {
                quiet.add(cycle);
            }
        }
        return quiet;
    }
}
