package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class OverheadReportTest {

    /** The per-round after / before of the A/A control run (agent-overhead-20261125-021627.md). */
    private static final List<Double> PLACEBO_ROUNDS = List.of(0.9990, 0.9955, 1.0012, 0.9996, 1.0022, 0.9927);

    @Test
    void judgesTheMeanOfTheRoundsNotEachRound() {
        // mean 0.99837, s 0.00360, t(0.975, 5) = 2.571: 0.99458 .. 1.00215; one round (0.9927) is below
        // 0.995 and another (0.9955) close to it, which a rule on every round would hold against the placebo
        assertThat(OverheadReport.attachVerdict(PLACEBO_ROUNDS, 96, 0.99))
                .isEqualTo("≥ 0.990: **shown** (mean of 6 rounds, 95 % interval 0.9946 .. 1.0022)");
        // against 0.995 six rounds of this spread are too few: the interval's lower end falls short
        assertThat(OverheadReport.attachVerdict(PLACEBO_ROUNDS, 96, 0.995)).startsWith("≥ 0.995: **not shown**");
        // two more rounds at the same mean narrow it enough
        List<Double> eight = new ArrayList<>(PLACEBO_ROUNDS);
        eight.addAll(List.of(0.9985, 0.9982));
        assertThat(OverheadReport.attachVerdict(eight, 128, 0.995)).startsWith("≥ 0.995: **shown**");
    }

    @Test
    void aCostlyAgentIsNotShown() {
        List<Double> rounds = List.of(0.9940, 0.9930, 0.9955, 0.9925, 0.9950, 0.9945);
        assertThat(OverheadReport.attachVerdict(rounds, 96, 0.995)).startsWith("≥ 0.995: **not shown**");
    }

    @Test
    void tooFewRoundsOrQuietCyclesAreNotEnough() {
        List<Double> fast = List.of(1.010, 1.011, 1.009, 1.010, 1.012, 1.010);
        assertThat(OverheadReport.attachVerdict(fast, 96, 0.995)).startsWith("≥ 0.995: **shown**");
        assertThat(OverheadReport.attachVerdict(fast.subList(0, 4), 96, 0.995)).startsWith("≥ 0.995: **not shown**")
                .contains("mean of 4 rounds");
        assertThat(OverheadReport.attachVerdict(fast, 7, 0.995)).startsWith("≥ 0.995: **not shown**");
        assertThat(OverheadReport.attachVerdict(fast.subList(0, 1), 96, 0.995)).isEqualTo("≥ 0.995: **not shown**");
    }
}
