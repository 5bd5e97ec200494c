package io.cctflow.core.diff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cctflow.core.Cct;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class OverlapTest {

    @Property(tries = 200)
    void overlapOfATreeWithItselfIsOne(@ForAll long seed, @ForAll @IntRange(min = 1, max = 60) int stacks) {
        Cct t = Trees.pair(seed, stacks, 6, 3)[0];
        CommonTree ct = CommonTree.relaxed(t, t);
        for (Weight w : Weight.values()) {
            assertThat(Overlap.of(ct, w)).as("%s", w).isCloseTo(1.0, within(1e-9));
            assertThat(WeightMatching.rank(ct, w, 1.0, 0)).isEmpty();
        }
        assertThat(Overlap.score(ct, Weight.SELF, Weight.TOTAL)).isCloseTo(100.0, within(1e-7));
    }

    @Property(tries = 300)
    void overlapIsSymmetricAndWithinZeroAndOne(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 60) int stacks) {
        Cct[] t = Trees.pair(seed, stacks, 5, 3);
        CommonTree ab = CommonTree.relaxed(t[0], t[1]);
        CommonTree ba = CommonTree.relaxed(t[1], t[0]);
        for (Weight w : Weight.values()) {
            double o = Overlap.of(ab, w);
            assertThat(o).isBetween(0.0, 1.0);
            // matching B against A may pick other pairs under ties, so compare on the same pairs
            assertThat(Overlap.of(swap(ab), w)).isCloseTo(o, within(1e-12));
            assertThat(Overlap.of(ba, w)).isBetween(0.0, 1.0);
        }
        assertThat(Overlap.score(ab, Weight.SELF, Weight.TOTAL)).isBetween(0.0, 100.0);
    }

    @Property(tries = 300)
    void weightMatchingRanksLargestDifferencesFirstAndStopsAtTheThreshold(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 60) int stacks,
            @ForAll @IntRange(min = 0, max = 100) int thresholdPercent) {
        Cct[] t = Trees.pair(seed, stacks, 5, 3);
        CommonTree ct = CommonTree.relaxed(t[0], t[1]);
        double threshold = thresholdPercent / 100.0;
        double overlap = Overlap.of(ct, Weight.SELF);
        List<WeightDifference> ranked = WeightMatching.rank(ct, Weight.SELF, threshold, 0);
        double previous = Double.MAX_VALUE;
        double running = overlap;
        for (int k = 0; k < ranked.size(); k++) {
            WeightDifference d = ranked.get(k);
            assertThat(Math.abs(d.delta())).isLessThanOrEqualTo(previous).isGreaterThan(0.0);
            previous = Math.abs(d.delta());
            assertThat(running).as("stops once the threshold is reached").isLessThan(threshold);
            running = Math.min(1.0, running + Math.abs(d.delta()) / 2);
            assertThat(d.overlapAfter()).isCloseTo(running, within(1e-9));
            assertThat(ct.partnerInSecond(d.nodeFirst())).isEqualTo(d.nodeSecond());
        }
        List<WeightDifference> capped = WeightMatching.rank(ct, Weight.SELF, 1.0, 2);
        assertThat(capped.size()).isLessThanOrEqualTo(2);
    }

    @Test
    void overlapOfTwoCommonTreesIsTheSumOfMinimumShares() {
        // common tree A, A/B, A/C; old self 2/1/1 (of 4), new 1/1/2 (of 4); D only in new, excised
        Cct old = Trees.of("A0", 2, "A0/B1", 1, "A0/C2", 1);
        Cct neu = Trees.of("A0", 1, "A0/B1", 1, "A0/C2", 2, "A0/D3", 4);
        CommonTree ct = CommonTree.relaxed(old, neu);
        assertThat(ct.size()).isEqualTo(3);
        assertThat(Overlap.of(ct, Weight.SELF)).isCloseTo(0.25 + 0.25 + 0.25, within(1e-12));
        List<WeightDifference> ranked = WeightMatching.rank(ct, Weight.SELF, 1.0, 0);
        assertThat(ranked).extracting(WeightDifference::method).containsExactly(Trees.method('A'), Trees.method('C'));
        assertThat(ranked.get(0).delta()).isCloseTo(-0.25, within(1e-12));
        assertThat(ranked.get(0).overlapAfter()).isCloseTo(0.875, within(1e-12));
        assertThat(ranked.get(1).overlapAfter()).isCloseTo(1.0, within(1e-12));
        assertThat(WeightMatching.rank(ct, Weight.SELF, 0.8, 0)).hasSize(1);
        // score: overlap(self) * overlap(total) * 3/3 * 3/4 * 100
        double total = Overlap.of(ct, Weight.TOTAL);
        assertThat(Overlap.score(ct, Weight.SELF, Weight.TOTAL)).isCloseTo(0.75 * total * 0.75 * 100, within(1e-9));
    }
    private static CommonTree swap(CommonTree ct) {
        return ct.swap();
    }
}
