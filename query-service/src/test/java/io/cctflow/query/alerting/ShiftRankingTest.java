package io.cctflow.query.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.TreeCounts;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.MethodSamples;
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
        // baseline: a->b 100, a 100: a 100 %, b 50 %; current: a->b->a->b 300, a 100: a 100 %, b 75 %
        Profiles baseline = new Profiles(List.of(new long[] {a, b}, new long[] {a}), List.of(100L, 100L));
        Profiles current = new Profiles(List.of(new long[] {a, b, a, b}, new long[] {a}), List.of(300L, 100L));

        List<MethodShift> top = ShiftRanking.significant(halves(current), halves(baseline), FDR, 10);

        // a's method time did not change (100 % on both sides): not significant, not exported
        assertThat(top).containsExactly(new MethodShift(b, 300, 100, 0.25));
    }

    @Test
    void aMethodOnOneSideOnlyShiftsByItsWholeShare() {
        long a = Profiles.method(0);
        long gone = Profiles.method(1);
        long added = Profiles.method(2);
        Profiles baseline = new Profiles(List.of(new long[] {a, gone}, new long[] {a}), List.of(100L, 300L));
        Profiles current = new Profiles(List.of(new long[] {a, added}, new long[] {a}), List.of(100L, 100L));

        List<MethodShift> top = ShiftRanking.significant(halves(current), halves(baseline), FDR, 2);

        assertThat(top).containsExactly(new MethodShift(added, 100, 0, 0.5), new MethodShift(gone, 0, 100, -0.25));
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
