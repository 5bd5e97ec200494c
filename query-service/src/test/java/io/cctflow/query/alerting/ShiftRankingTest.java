package io.cctflow.query.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;
import static org.assertj.core.api.Assertions.tuple;

import io.cctflow.core.TreeCounts;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.core.diff.stats.ShareChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ShiftRankingTest {
    private static final double FDR = MethodComparison.DEFAULT_LEVEL;

    private static List<MethodSamples> side(Profiles... replicates) {
        return java.util.Arrays.stream(replicates).map(p -> MethodSamples.of(TreeCounts.of(p.tree()))).toList();
    }

    /**
     * One profile as two replicates of half its counts each (a stack's odd sample in the second),
     * which add up to it: the test labels nothing with a single replicate on a side.
     */
    private static List<MethodSamples> halves(Profiles p) {
        List<Long> first = p.counts().stream().map(c -> c / 2).toList();
        List<Long> second = p.counts().stream().map(c -> c - c / 2).toList();
        return side(new Profiles(p.stacks(), first), new Profiles(p.stacks(), second));
    }

    @Property(tries = 200)
    void topKEqualsTheFirstKOfTheBruteForceRankingOfSignificantShifts(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 12) int k, @ForAll @IntRange(min = 1, max = 15) int alphabet,
            @ForAll @IntRange(min = 1, max = 3) int replicates) {
        Random random = new Random(seed);
        Profiles[] current = new Profiles[replicates];
        Profiles[] baseline = new Profiles[replicates];
        for (int r = 0; r < replicates; r++) {
            current[r] = Profiles.random(random, 1 + random.nextInt(80), 8, alphabet);
            baseline[r] = Profiles.random(random, 1 + random.nextInt(80), 8, alphabet);
            if (current[r].samples() == 0 || baseline[r].samples() == 0) {
                return;
            }
        }
        List<MethodShift> expected = Profiles.rankSignificant(List.of(current), List.of(baseline), alphabet);

        List<MethodShift> top = ShiftRanking.significant(side(current), side(baseline), FDR, k);

        assertThat(top).hasSize(Math.min(k, expected.size()));
        assertThat(top).isEqualTo(expected.subList(0, top.size()));
    }

    @Property(tries = 100)
    void neverMoreThanKSeriesHoweverManyMethodsShift(@ForAll long seed, @ForAll @IntRange(min = 1, max = 5) int k) {
        Random random = new Random(seed);
        int alphabet = 60; // far more methods than K
        Profiles current = Profiles.random(random, 2000, 6, alphabet);
        Profiles baseline = Profiles.random(random, 2000, 6, alphabet);

        List<MethodShift> top = ShiftRanking.significant(halves(current), halves(baseline), FDR, k);
        // two unrelated profiles: many methods shift. How many are significant depends on the noise
        // model's degrees of freedom, which replicates that agree exactly, as these halves do, keep
        // low: in about 1 % of such pairs none is (the prior's degrees of freedom near 1). Only pairs
        // with more than k significant shifts test the cut; jqwik fails the property if it has to
        // discard too many tries, so it cannot pass on discards alone.
        int all = ShiftRanking.significant(halves(current), halves(baseline), FDR, alphabet).size();
        Assume.that(all > k);

        assertThat(top).hasSize(Math.min(k, all));
        assertThat(new TreeSet<>(top.stream().map(MethodShift::methodId).toList())).hasSize(top.size());
    }

    @Test
    void recursionCountsASampleOncePerMethod() {
        long a = Profiles.method(0);
        long b = Profiles.method(1);
        // baseline: a->b 200, a 200: a 100 %, b 50 %; current: a->b->a->b 300, a 100: a 100 %, b 75 %
        // (replicates of equal size on both sides, so the normalisation thins nothing)
        Profiles baseline = new Profiles(List.of(new long[] {a, b}, new long[] {a}), List.of(200L, 200L));
        Profiles current = new Profiles(List.of(new long[] {a, b, a, b}, new long[] {a}), List.of(300L, 100L));

        List<MethodShift> top = ShiftRanking.significant(halves(current), halves(baseline), FDR, 10);

        // a's method time did not change (100 % on both sides): not significant, not exported; b's
        // counts are its recursion-aware samples, and the shift the compare endpoint's delta
        assertThat(top).extracting(MethodShift::methodId, MethodShift::currentSamples, MethodShift::baselineSamples)
                .containsExactly(tuple(b, 300L, 200L));
        assertThat(top).containsExactly(compared(halves(current), halves(baseline), b));
    }

    /** What the comparison (the compare endpoint's) reports for a method's method time, as a shift. */
    private static MethodShift compared(List<MethodSamples> current, List<MethodSamples> baseline, long method) {
        ShareChange c = MethodComparison.compare(baseline, current, FDR).methods().stream()
                .filter(m -> m.method() == method).findFirst().orElseThrow().methodTime().change();
        return new MethodShift(method, c.countB(), c.countA(), c.delta(), c.low(), c.high());
    }

    @Test
    void theShiftIsNormalisedSoAMethodDilutedByAnotherDoesNotShift() {
        // ten leaves under one root; leaf 1 (30 % of the samples) does twice the work in the current
        // deployment, the other nine keep theirs. Raw, each of them loses a quarter of its share and
        // leaf 1 gains 16 points; against the unchanged bulk (the compare endpoint's normalised
        // delta) the nine stay and leaf 1 gains 26.
        List<MethodSamples> baseline = new ArrayList<>();
        List<MethodSamples> current = new ArrayList<>();
        for (int rep = 0; rep < 6; rep++) {
            List<long[]> stacks = new ArrayList<>();
            List<Long> counts = new ArrayList<>();
            for (int leaf = 1; leaf <= 10; leaf++) {
                stacks.add(new long[] {Profiles.method(0), Profiles.method(leaf)});
                long work = leaf == 1 ? 3000 : 778;
                counts.add((leaf == 1 && rep >= 3 ? 2 * work : work) + (leaf * 7 + rep * 13) % 21 - 10);
            }
            (rep < 3 ? baseline : current).add(MethodSamples.of(TreeCounts.of(new Profiles(stacks, counts).tree())));
        }
        long doubled = Profiles.method(1);

        List<MethodShift> top = ShiftRanking.significant(current, baseline, FDR, 10);

        assertThat(top).extracting(MethodShift::methodId).containsExactly(doubled);
        MethodShift shift = top.get(0);
        assertThat(shift).isEqualTo(compared(current, baseline, doubled));
        // 0.3 -> 0.6 of the bulk's samples; the factors' geometric mean is 1, so each side's shares
        // are scaled by 1.3^(+-1/2): (0.6 - 0.3) / sqrt(1.3)
        assertThat(shift.shift()).isCloseTo(0.3 / Math.sqrt(1.3), offset(0.005));
        assertThat(shift.low()).isBetween(0.2, shift.shift());
        assertThat(shift.high()).isBetween(shift.shift(), 0.35);
        assertThat(rawShift(current, baseline, doubled)).as("the raw difference of shares").isCloseTo(0.16, offset(0.01));
        for (int leaf = 2; leaf <= 10; leaf++) {
            long id = Profiles.method(leaf);
            assertThat(rawShift(current, baseline, id)).as("leaf %d's raw share fell", leaf).isLessThan(-0.015);
            assertThat(compared(current, baseline, id).shift()).as("leaf %d's normalised share did not", leaf)
                    .isCloseTo(0, offset(0.002));
        }
    }

    /** Method samples now over all samples now, minus the same in the baseline: the unnormalised shift. */
    private static double rawShift(List<MethodSamples> current, List<MethodSamples> baseline, long method) {
        MethodSamples now = MethodComparison.sum(current);
        MethodSamples before = MethodComparison.sum(baseline);
        return (double) now.methodSamplesOf(method) / now.samples()
                - (double) before.methodSamplesOf(method) / before.samples();
    }

    @Test
    void aMethodOnOneSideOnlyShiftsByItsWholeShare() {
        long a = Profiles.method(0);
        long gone = Profiles.method(1);
        long added = Profiles.method(2);
        Profiles baseline = new Profiles(List.of(new long[] {a, gone}, new long[] {a}), List.of(100L, 300L));
        Profiles current = new Profiles(List.of(new long[] {a, added}, new long[] {a}), List.of(200L, 200L));

        List<MethodShift> top = ShiftRanking.significant(halves(current), halves(baseline), FDR, 2);

        assertThat(top).extracting(MethodShift::methodId, MethodShift::currentSamples, MethodShift::baselineSamples)
                .containsExactly(tuple(added, 200L, 0L), tuple(gone, 0L, 100L));
        assertThat(top).containsExactly(compared(halves(current), halves(baseline), added),
                compared(halves(current), halves(baseline), gone));
    }

    @Test
    void noiseAloneExportsNoShift() {
        // the same split, give or take a few samples: nothing is significant
        long a = Profiles.method(0);
        long b = Profiles.method(1);
        Profiles baseline = new Profiles(List.of(new long[] {a, b}, new long[] {a}), List.of(500L, 500L));
        Profiles current = new Profiles(List.of(new long[] {a, b}, new long[] {a}), List.of(520L, 480L));

        assertThat(ShiftRanking.significant(halves(current), halves(baseline), FDR, 10)).isEmpty();
    }

    @Test
    void emptySideHasNoShifts() {
        Profiles some = new Profiles(List.<long[]>of(new long[] {Profiles.method(0)}), List.of(5L));
        List<MethodSamples> empty = List.of(MethodSamples.of(TreeCounts.empty()));
        assertThat(ShiftRanking.significant(halves(some), empty, FDR, 3)).isEmpty();
        assertThat(ShiftRanking.significant(empty, halves(some), FDR, 3)).isEmpty();
        assertThatThrownBy(() -> ShiftRanking.significant(empty, empty, FDR, 0))
                .hasMessageContaining("k must be >= 1");
    }
}
