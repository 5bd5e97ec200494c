package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class OverheadReportTest {

    /** The per-round after / before of the A/A control run (agent-overhead-20261125-021627.md). */
    private static final List<Double> PLACEBO_ROUNDS = List.of(0.9990, 0.9955, 1.0012, 0.9996, 1.0022, 0.9927);

    @Test
    void judgesTheMeanOfTheRoundsNotEachRound() {
        // mean 0.99837, s 0.00360, t(0.975, 5) = 2.571: 0.99458 .. 1.00215; one round (0.9927) is below
        // 0.995 and another (0.9955) close to it, which a rule on every round would hold against the placebo
        assertThat(OverheadReport.roundsVerdict(PLACEBO_ROUNDS, 96, 0.99))
                .isEqualTo("≥ 0.990: **shown** (mean of 6 rounds, 95 % interval 0.9946 .. 1.0022)");
        // against 0.995 six rounds of this spread are too few: the interval's lower end falls short
        assertThat(OverheadReport.roundsVerdict(PLACEBO_ROUNDS, 96, 0.995)).startsWith("≥ 0.995: **not shown**");
        // two more rounds at the same mean narrow it enough
        List<Double> eight = new ArrayList<>(PLACEBO_ROUNDS);
        eight.addAll(List.of(0.9985, 0.9982));
        assertThat(OverheadReport.roundsVerdict(eight, 128, 0.995)).startsWith("≥ 0.995: **shown**");
    }

    @Test
    void aCostlyAgentIsNotShown() {
        List<Double> rounds = List.of(0.9940, 0.9930, 0.9955, 0.9925, 0.9950, 0.9945);
        assertThat(OverheadReport.roundsVerdict(rounds, 96, 0.995)).startsWith("≥ 0.995: **not shown**");
    }

    @Test
    void tooFewRoundsOrQuietCyclesAreNotEnough() {
        List<Double> fast = List.of(1.010, 1.011, 1.009, 1.010, 1.012, 1.010);
        assertThat(OverheadReport.roundsVerdict(fast, 96, 0.995)).startsWith("≥ 0.995: **shown**");
        assertThat(OverheadReport.roundsVerdict(fast.subList(0, 4), 96, 0.995)).startsWith("≥ 0.995: **not shown**")
                .contains("mean of 4 rounds");
        assertThat(OverheadReport.roundsVerdict(fast, 7, 0.995)).startsWith("≥ 0.995: **not shown**");
        assertThat(OverheadReport.roundsVerdict(fast.subList(0, 1), 96, 0.995)).isEqualTo("≥ 0.995: **not shown**");
    }

    @Test
    void aRoundWhoseBeforePhaseDriftedIsNotJudged() {
        double[] steady = {0.999, 0.998, 1.000, 0.999, 0.998, 1.000};
        // its before phase falls 3 % between the halves (above the bound of 2 %), and its after phase is 9 % low
        OverheadReport drifted = attachReport(steady, 0.97, 0.90);
        String md = drifted.toMarkdown("");

        assertThat(md).contains("[before drifted -3.0 %: not judged]")
                .contains("≥ 0.995: **shown** (mean of 6 rounds")
                .contains("The verdict's 6 judged rounds (1 not judged");
        assertThat(md.split("not judged]", -1)).as("marked in the verdict's row alone").hasSize(2);

        // 1.5 % is within the bound: the round is judged, and its after phase holds the verdict back
        String judged = attachReport(steady, 0.985, 0.90).toMarkdown("");
        assertThat(judged).doesNotContain("not judged]").doesNotContain("The verdict's")
                .contains("≥ 0.995: **not shown** (mean of 7 rounds");
    }

    @Test
    void anAgentAttachedToAJvmWithoutJfrIsJudgedAgainstNone() {
        double[] rounds = {0.996, 0.994, 0.998, 0.995, 0.997, 0.993};
        OverheadReport report = new OverheadReport(2, List.of(Setup.NONE, Setup.NONE_ATTACHED), 0.05, 2);
        for (int i = 0; i < rounds.length; i++) {
            List<Slice[]> before = new ArrayList<>();
            List<Slice[]> after = new ArrayList<>();
            for (int c = 0; c < 16; c++) {
                before.add(cycle(Setup.NONE, Setup.NONE_ATTACHED, 1.02, c));
                after.add(cycle(Setup.NONE, Setup.NONE_ATTACHED, 1.02 * rounds[i], c));
            }
            Round.ChildEnd end = new Round.ChildEnd(0, 1 << 20, 1 << 26, 0);
            report.addRound(new Round(i + 1, after, before, Map.of(Setup.NONE, end, Setup.NONE_ATTACHED, end),
                    "0.00 0.00 0.00"));
        }
        String md = report.toMarkdown("");

        // the JVM's own 2 % cancels between the phases; a 0.45 % cost is within 1 % but not within 0.5 %
        assertThat(md).contains("## Agent 20 ms attached to a JVM without JFR: the same JVM after / before")
                .contains("neither child runs JFR")
                .contains("≥ 0.990: **shown** (mean of 6 rounds")
                .doesNotContain("recording plain JFR 20 ms:");
    }

    @Test
    void crossJvmGoalsAreJudgedOverRoundsToo() {
        // agent 20 ms / none by round: one round below 0.99, which a rule on every round would hold
        // against the agent; mean 1.0048, s 0.0113, t(0.975, 5) = 2.571: 0.9929 .. 1.0167
        String md = crossJvmReport(1.017, 0.985, 1.010, 1.005, 1.000, 1.012).toMarkdown("");
        assertThat(md).contains("| agent 20 ms / none | 96 |")
                .contains("≥ 0.990: **shown** (mean of 6 rounds, 95 % interval 0.9929 .. 1.0167)")
                // per CPU second the same test, for information
                .contains("≥ 0.990: reached (mean of 6 rounds");
        // an agent that costs 1.5 % in every JVM
        assertThat(crossJvmReport(0.985, 0.986, 0.984, 0.985, 0.987, 0.983).toMarkdown(""))
                .contains("≥ 0.990: **not shown** (mean of 6 rounds");
        // four rounds are too few, however good
        assertThat(crossJvmReport(1.017, 1.010, 1.005, 1.012).toMarkdown(""))
                .contains("≥ 0.990: **not shown** (mean of 4 rounds");
    }

    @Test
    void brokerAwayIsComparedWithTheAgentAndWarningsAreCountedPerSetup() {
        List<Setup> setups = List.of(Setup.NONE, Setup.AGENT_20, Setup.AGENT_20_AWAY);
        OverheadReport report = new OverheadReport(2, setups, 0.05, 2);
        for (int round = 1; round <= 2; round++) {
            List<Slice[]> cycles = new ArrayList<>();
            for (int c = 0; c < 8; c++) {
                Slice[] slices = cycle(Setup.NONE, Setup.AGENT_20, 0.99, c);
                slices[Setup.AGENT_20_AWAY.ordinal()] = cycle(Setup.NONE, Setup.AGENT_20_AWAY, 0.98, c)[
                        Setup.AGENT_20_AWAY.ordinal()];
                cycles.add(slices);
            }
            report.addRound(new Round(round, cycles, List.of(), Map.of(
                    Setup.NONE, new Round.ChildEnd(0, 1 << 20, 1 << 26, 0),
                    Setup.AGENT_20, new Round.ChildEnd(0, 1 << 20, 1 << 26, 1),
                    Setup.AGENT_20_AWAY, new Round.ChildEnd(0, 1 << 20, 1 << 26, 3 + round)), "0.00 0.00 0.00"));
        }
        assertThat(report.pairs()).extracting(OverheadReport.Pair::label).contains(
                "agent 20 ms / none", "agent 20 ms, Kafka away / none", "agent 20 ms, Kafka away / agent 20 ms");
        String md = report.toMarkdown("");
        // 0.98 / 0.99, each cycle's jitter the same on both sides
        assertThat(md).contains("| agent 20 ms, Kafka away / agent 20 ms | 16 | 0.9899 |");
        assertThat(md).contains("by setup: agent 20 ms 2, agent 20 ms, Kafka away 9\n");
    }

    @Test
    void preloadedJfrIsComparedWithPlainJfrAndTheAgentWithIt() {
        OverheadReport report = new OverheadReport(2,
                List.of(Setup.NONE, Setup.AGENT_20, Setup.JFR_20, Setup.JFR_20_PRELOADED), 0.05, 2);
        assertThat(report.pairs()).extracting(OverheadReport.Pair::label).containsExactly(
                "agent 20 ms / none", "agent 20 ms / plain JFR 20 ms", "plain JFR 20 ms / none",
                "plain JFR 20 ms, agent's classes loaded / none",
                "plain JFR 20 ms, agent's classes loaded / plain JFR 20 ms",
                "agent 20 ms / plain JFR 20 ms, agent's classes loaded");
    }

    /** Rounds of none and agent 20 ms, 16 quiet cycles each, the agent child at {@code ratios[i]} of none's rate. */
    private static OverheadReport crossJvmReport(double... ratios) {
        OverheadReport report = new OverheadReport(2, List.of(Setup.NONE, Setup.AGENT_20), 0.05, 2);
        for (int i = 0; i < ratios.length; i++) {
            List<Slice[]> cycles = new ArrayList<>();
            for (int c = 0; c < 16; c++) {
                cycles.add(cycle(Setup.NONE, Setup.AGENT_20, ratios[i], c));
            }
            Round.ChildEnd end = new Round.ChildEnd(0, 1 << 20, 1 << 26, 0);
            report.addRound(new Round(i + 1, cycles, List.of(), Map.of(Setup.NONE, end, Setup.AGENT_20, end),
                    "0.00 0.00 0.00"));
        }
        return report;
    }

    /**
     * Rounds of the attach design, 16 cycles per phase: the control child runs 100,000 operations per
     * slice, the attached one {@code ratio} times as many ({@link #cycle}). Round i of
     * {@code steady} runs at 1.0 before the attach and at {@code steady[i]} after; one more round runs at
     * 1.0 in the first half of its before phase, {@code laterBefore} in the second, and {@code after} after.
     */
    private static OverheadReport attachReport(double[] steady, double laterBefore, double after) {
        OverheadReport report = new OverheadReport(2, List.of(Setup.JFR_20, Setup.JFR_20_ATTACHED), 0.05, 2);
        for (int i = 0; i <= steady.length; i++) {
            boolean last = i == steady.length;
            List<Slice[]> before = new ArrayList<>();
            List<Slice[]> later = new ArrayList<>();
            for (int c = 0; c < 16; c++) {
                before.add(cycle(Setup.JFR_20, Setup.JFR_20_ATTACHED, last && c >= 8 ? laterBefore : 1.0, c));
                later.add(cycle(Setup.JFR_20, Setup.JFR_20_ATTACHED, last ? after : steady[i], c));
            }
            Round.ChildEnd end = new Round.ChildEnd(0, 1 << 20, 1 << 26, 0);
            report.addRound(new Round(i + 1, later, before, Map.of(Setup.JFR_20, end, Setup.JFR_20_ATTACHED, end),
                    "0.00 0.00 0.00"));
        }
        return report;
    }

    /**
     * One quiet cycle of 1.5 s slices: {@code control} runs 100,000 operations, {@code other} {@code ratio}
     * times as many, alternating ±0.5 % by {@code cycle}.
     */
    private static Slice[] cycle(Setup control, Setup other, double ratio, int cycle) {
        double jitter = cycle % 2 == 0 ? 1.005 : 0.995;
        Slice[] slices = new Slice[Setup.values().length];
        slices[control.ordinal()] = new Slice(100_000, 1_500_000_000L,
                new long[] {3_000_000_000L, 0, 1_000_000, 0, 0, 1_000}, 0);
        slices[other.ordinal()] = new Slice(Math.round(100_000 * ratio * jitter), 1_500_000_000L,
                new long[] {3_000_000_000L, 1_000_000, 1_000_000, 0, 0, 1_000}, 0);
        return slices;
    }
}
