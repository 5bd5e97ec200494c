package io.cctflow.query.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.TreeCounts;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ShiftRankingTest {

    @Property(tries = 300)
    void topKEqualsTheFirstKOfTheFullBruteForceRanking(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 12) int k, @ForAll @IntRange(min = 1, max = 15) int alphabet) {
        Random random = new Random(seed);
        Profiles current = Profiles.random(random, 1 + random.nextInt(80), 8, alphabet);
        Profiles baseline = Profiles.random(random, 1 + random.nextInt(80), 8, alphabet);
        if (current.samples() == 0 || baseline.samples() == 0) {
            return;
        }
        List<MethodShift> expected = Profiles.rankAll(current, baseline, alphabet);

        List<MethodShift> top = ShiftRanking.top(TreeCounts.of(current.tree()), TreeCounts.of(baseline.tree()), k);

        assertThat(top).hasSize(Math.min(k, expected.size()));
        assertThat(top).isEqualTo(expected.subList(0, top.size()));
    }

    @Property(tries = 100)
    void neverMoreThanKSeriesHoweverManyMethodsShift(@ForAll long seed, @ForAll @IntRange(min = 1, max = 5) int k) {
        Random random = new Random(seed);
        int alphabet = 60; // far more methods than K
        Profiles current = Profiles.random(random, 200, 6, alphabet);
        Profiles baseline = Profiles.random(random, 200, 6, alphabet);

        List<MethodShift> top = ShiftRanking.top(TreeCounts.of(current.tree()), TreeCounts.of(baseline.tree()), k);

        assertThat(top).hasSize(k);
        assertThat(new TreeSet<>(top.stream().map(MethodShift::methodId).toList())).hasSize(k);
    }

    @Test
    void recursionCountsASampleOncePerMethod() {
        long a = Profiles.method(0);
        long b = Profiles.method(1);
        // baseline: a->b 10, a 10: a 100 %, b 50 %; current: a->b->a->b 30, a 10: a 100 %, b 75 %
        Profiles baseline = new Profiles(List.of(new long[] {a, b}, new long[] {a}), List.of(10L, 10L));
        Profiles current = new Profiles(List.of(new long[] {a, b, a, b}, new long[] {a}), List.of(30L, 10L));

        List<MethodShift> top = ShiftRanking.top(TreeCounts.of(current.tree()), TreeCounts.of(baseline.tree()), 10);

        assertThat(top).containsExactly(new MethodShift(b, 30, 10, 0.25), new MethodShift(a, 40, 20, 0.0));
    }

    @Test
    void aMethodOnOneSideOnlyShiftsByItsWholeShare() {
        long a = Profiles.method(0);
        long gone = Profiles.method(1);
        long added = Profiles.method(2);
        Profiles baseline = new Profiles(List.of(new long[] {a, gone}, new long[] {a}), List.of(1L, 3L));
        Profiles current = new Profiles(List.of(new long[] {a, added}, new long[] {a}), List.of(1L, 1L));

        List<MethodShift> top = ShiftRanking.top(TreeCounts.of(current.tree()), TreeCounts.of(baseline.tree()), 2);

        assertThat(top).containsExactly(new MethodShift(added, 1, 0, 0.5), new MethodShift(gone, 0, 1, -0.25));
    }

    @Test
    void emptySideHasNoShifts() {
        Profiles some = new Profiles(List.<long[]>of(new long[] {Profiles.method(0)}), List.of(5L));
        assertThat(ShiftRanking.top(TreeCounts.of(some.tree()), TreeCounts.empty(), 3)).isEmpty();
        assertThat(ShiftRanking.top(TreeCounts.empty(), TreeCounts.of(some.tree()), 3)).isEmpty();
        assertThatThrownBy(() -> ShiftRanking.top(TreeCounts.empty(), TreeCounts.empty(), 0))
                .hasMessageContaining("k must be >= 1");
    }
}
