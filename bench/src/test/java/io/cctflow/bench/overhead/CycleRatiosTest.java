package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class CycleRatiosTest {

    private static Slice slice(long ops, long wallNanos, long workers, long agent) {
        return new Slice(ops, wallNanos, new long[] {workers, agent, 0, 0, 0, 1_000}, 0);
    }

    private static Slice[] cycle(Slice none, Slice agent) {
        Slice[] c = new Slice[Setup.values().length];
        c[Setup.NONE.ordinal()] = none;
        c[Setup.AGENT_20.ordinal()] = agent;
        return c;
    }

    @Test
    void perCycleRatiosDivideEachCyclesRates() {
        List<Slice[]> cycles = List.of(
                cycle(slice(1000, 1_000_000_000, 2_000_000_000, 0), slice(990, 1_000_000_000, 1_900_000_000, 100_000)),
                cycle(slice(500, 500_000_000, 1_000_000_000, 0), slice(1020, 1_000_000_000, 2_000_000_000, 0)));

        assertThat(CycleRatios.perCycle(cycles, Setup.AGENT_20, Setup.NONE, Slice.Rate.WALL))
                .containsExactly(0.99, 1.02);
        // per CPU second: 990 / 1.9001 s against 1000 / 2.000001 s
        assertThat(CycleRatios.perCycle(cycles, Setup.AGENT_20, Setup.NONE, Slice.Rate.CPU).get(0))
                .isCloseTo((990 / 1.900101) / (1000 / 2.000001), within(1e-12));
        assertThat(CycleRatios.perCycle(cycles, Setup.AGENT_20, Setup.NONE, Slice.Rate.WORKER_CPU).get(0))
                .isCloseTo((990 / 1.9) / (1000 / 2.0), within(1e-12));
    }

    @Test
    void ratioOfSumsWeighsEverySliceByItsTime() {
        Random random = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            List<Slice[]> cycles = new ArrayList<>();
            long opsA = 0;
            long wallA = 0;
            long opsB = 0;
            long wallB = 0;
            for (int i = 1 + random.nextInt(20); i > 0; i--) {
                Slice a = slice(random.nextInt(100_000), 1 + random.nextInt(2_000_000_000), 1, 0);
                Slice b = slice(random.nextInt(100_000), 1 + random.nextInt(2_000_000_000), 1, 0);
                cycles.add(cycle(b, a));
                opsA += a.ops();
                wallA += a.wallNanos();
                opsB += b.ops();
                wallB += b.wallNanos();
            }
            double expected = ((double) opsA / wallA) / ((double) opsB / wallB);
            assertThat(CycleRatios.ofSums(cycles, Setup.AGENT_20, Setup.NONE, Slice.Rate.WALL))
                    .isCloseTo(expected, within(1e-9 * expected));
        }
    }

    @Test
    void aCostlySliceCountsInTheSumsButNotInTheMedian() {
        List<Slice[]> cycles = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            cycles.add(cycle(slice(1000, 1_000_000_000, 1, 0), slice(1000, 1_000_000_000, 1, 0)));
        }
        cycles.add(cycle(slice(1000, 1_000_000_000, 1, 0), slice(100, 1_000_000_000, 1, 0)));

        assertThat(Quantiles.of(CycleRatios.perCycle(cycles, Setup.AGENT_20, Setup.NONE, Slice.Rate.WALL)).median())
                .isEqualTo(1.0);
        assertThat(CycleRatios.ofSums(cycles, Setup.AGENT_20, Setup.NONE, Slice.Rate.WALL)).isCloseTo(0.91, within(1e-12));
    }

    @Test
    void afterOverBeforeDividesEachLaterRatioByTheMedianOfTheEarlierOnes() {
        Random random = new Random(23);
        for (int trial = 0; trial < 200; trial++) {
            List<Slice[]> before = new ArrayList<>();
            List<Double> beforeRatios = new ArrayList<>();
            addRandomCycles(random, 1 + random.nextInt(15), before, beforeRatios);
            double median = bruteMedian(beforeRatios);
            List<Slice[]> after = new ArrayList<>();
            List<Double> afterRatios = new ArrayList<>();
            addRandomCycles(random, random.nextInt(15), after, afterRatios);

            List<Double> actual = CycleRatios.afterOverBefore(before, after, Setup.AGENT_20, Setup.NONE,
                    Slice.Rate.WALL);

            assertThat(actual).hasSize(afterRatios.size());
            for (int i = 0; i < afterRatios.size(); i++) {
                double expected = afterRatios.get(i) / median;
                assertThat(actual.get(i)).isCloseTo(expected, within(1e-9 * expected));
            }
        }
        assertThatThrownBy(() -> CycleRatios.afterOverBefore(List.of(), List.of(), Setup.AGENT_20, Setup.NONE,
                Slice.Rate.WALL)).hasMessageContaining("before the attach");
    }

    @Test
    void driftComparesTheMediansOfTheTwoHalvesInCycleOrder() {
        Random random = new Random(29);
        for (int trial = 0; trial < 200; trial++) {
            List<Slice[]> cycles = new ArrayList<>();
            List<Double> ratios = new ArrayList<>();
            addRandomCycles(random, 2 + random.nextInt(20), cycles, ratios);
            // brute force: the earlier half is the first floor(n / 2) cycles, the later half the rest
            int half = ratios.size() / 2;
            double expected = bruteMedian(ratios.subList(half, ratios.size())) / bruteMedian(ratios.subList(0, half)) - 1;

            assertThat(CycleRatios.drift(cycles, Setup.AGENT_20, Setup.NONE, Slice.Rate.WALL))
                    .isCloseTo(expected, within(1e-9 * Math.max(1, Math.abs(expected))));
        }
        // the order of the cycles is what counts: the same ratios rising, then falling
        List<Slice[]> rising = List.of(cycle(slice(100, 1, 1, 0), slice(96, 1, 1, 0)),
                cycle(slice(100, 1, 1, 0), slice(97, 1, 1, 0)), cycle(slice(100, 1, 1, 0), slice(100, 1, 1, 0)),
                cycle(slice(100, 1, 1, 0), slice(101, 1, 1, 0)));
        assertThat(CycleRatios.drift(rising, Setup.AGENT_20, Setup.NONE, Slice.Rate.WALL))
                .isCloseTo(1.005 / 0.965 - 1, within(1e-12));
        assertThat(CycleRatios.drift(List.of(rising.get(3), rising.get(2), rising.get(1), rising.get(0)),
                Setup.AGENT_20, Setup.NONE, Slice.Rate.WALL)).isCloseTo(0.965 / 1.005 - 1, within(1e-12));
        assertThatThrownBy(() -> CycleRatios.drift(rising.subList(0, 1), Setup.AGENT_20, Setup.NONE,
                Slice.Rate.WALL)).hasMessageContaining("2 cycles");
    }

    /**
     * Adds {@code count} cycles of random agent 20 ms and none slices, and each cycle's ratio of their rates
     * per wall second computed by hand.
     */
    private static void addRandomCycles(Random random, int count, List<Slice[]> cycles, List<Double> ratios) {
        for (int i = 0; i < count; i++) {
            Slice a = slice(1 + random.nextInt(100_000), 1 + random.nextInt(2_000_000_000), 1, 0);
            Slice b = slice(1 + random.nextInt(100_000), 1 + random.nextInt(2_000_000_000), 1, 0);
            cycles.add(cycle(b, a));
            ratios.add(((double) a.ops() / a.wallNanos()) / ((double) b.ops() / b.wallNanos()));
        }
    }

    /** Brute-force median: sort, take the middle value or the mean of the middle two. */
    private static double bruteMedian(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    @Test
    void aSetupMissingFromACycleIsNamed() {
        List<Slice[]> cycles = List.<Slice[]>of(cycle(slice(1, 1, 1, 0), slice(1, 1, 1, 0)));

        assertThatThrownBy(() -> CycleRatios.perCycle(cycles, Setup.JFR_20, Setup.NONE, Slice.Rate.WALL))
                .hasMessageContaining("plain JFR 20 ms");
        assertThatThrownBy(() -> CycleRatios.ofSums(List.of(), Setup.AGENT_20, Setup.NONE, Slice.Rate.WALL))
                .hasMessageContaining("no cycles");
    }

    @Test
    void quietCyclesAreThoseWhereOthersUsedLittleInEverySlice() {
        Slice quiet = new Slice(1, 1_000_000_000, new long[6], 99_000_000); // 99 ms of 2 cores x 1 s < 5 %
        Slice busy = new Slice(1, 1_000_000_000, new long[6], 100_000_000); // 5 %: not below
        Slice[] bothQuiet = cycle(quiet, quiet);
        Slice[] oneBusy = cycle(quiet, busy);

        assertThat(quiet.quiet(0.05, 2)).isTrue();
        assertThat(busy.quiet(0.05, 2)).isFalse();
        assertThat(CycleRatios.quiet(List.<Slice[]>of(bothQuiet, oneBusy, bothQuiet), 0.05, 2))
                .containsExactly(bothQuiet, bothQuiet);
        assertThat(CycleRatios.quiet(List.<Slice[]>of(oneBusy), 0.051, 2)).containsExactly(oneBusy);
    }
}
