package io.cctflow.core.diff;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class CommonTreeTest {

    /**
     * Seed 000 Figure 3 (b), rebuilt from the text of Sect. 2.2.2 (the seed has the caption, not
     * the drawing): the new revision of A calls F before C, so C moves from call site 3 to 4; under
     * C the old tree calls H5 then I10, the new one I2 then H4.
     */
    static Cct figure3bOld() {
        return Trees.of("A0/B1/D2", 1, "A0/C3/H5", 1, "A0/C3/I10", 1);
    }

    static Cct figure3bNew() {
        return Trees.of("A0/B1/D2", 1, "A0/F2/G6", 1, "A0/C4/I2", 1, "A0/C4/H4", 1);
    }

    private static Map<String, String> pairsByPath(CommonTree ct) {
        Map<String, String> out = new HashMap<>();
        for (int x : ct.matchedInFirst()) {
            out.put(Trees.path(ct.first(), x), Trees.path(ct.second(), ct.partnerInSecond(x)));
        }
        return out;
    }

    @Test
    void relaxedMatchingReproducesFigure3b() {
        CommonTree ct = CommonTree.relaxed(figure3bOld(), figure3bNew());
        // C matched despite the shifted sibling order; H5~H4 matched; I10 and I2 not, because
        // I10 is called after H5 but I2 before H4; F's subtree is a difference
        assertThat(pairsByPath(ct)).isEqualTo(Map.of(
                "A0", "A0",
                "A0/B1", "A0/B1",
                "A0/B1/D2", "A0/B1/D2",
                "A0/C3", "A0/C4",
                "A0/C3/H5", "A0/C4/H4"));
        assertThat(ct.size()).isEqualTo(5);
        assertThat(ct.partnerInFirst(Trees.node(ct.second(), "A0/F2"))).isEqualTo(-1);
        assertThat(ct.partnerInFirst(Trees.node(ct.second(), "A0/C4/I2"))).isEqualTo(-1);
        assertThat(ct.partnerInSecond(Trees.node(ct.first(), "A0/C3/I10"))).isEqualTo(-1);
    }

    @Test
    void strictMatchingStopsAtTheShiftedSiblingInFigure3b() {
        CommonTree ct = CommonTree.strict(figure3bOld(), figure3bNew());
        // Def. 1: C (2nd child of A) faces F (2nd child in the new tree): mismatch, C unmatched
        assertThat(pairsByPath(ct)).isEqualTo(Map.of("A0", "A0", "A0/B1", "A0/B1", "A0/B1/D2", "A0/B1/D2"));
    }

    @Property(tries = 300)
    void relaxedMatchingEqualsNaiveRecursiveLcs(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 25) int stacks) {
        Cct[] t = Trees.pair(seed, stacks, 5, 3);
        CommonTree ct = CommonTree.relaxed(t[0], t[1]);
        Map<Integer, Integer> expected = new HashMap<>();
        naiveRelaxed(t[0], Cct.ROOT, t[1], Cct.ROOT, expected);
        Map<Integer, Integer> actual = new HashMap<>();
        for (int x : ct.matchedInFirst()) {
            actual.put(x, ct.partnerInSecond(x));
        }
        assertThat(actual).isEqualTo(expected);
        assertThat(ct.size()).isEqualTo(expected.size());
        Map<Integer, Integer> inverse = new HashMap<>();
        expected.forEach((x, y) -> inverse.put(y, x));
        for (int y = 1; y < t[1].size(); y++) {
            assertThat(ct.partnerInFirst(y)).isEqualTo(inverse.getOrDefault(y, -1));
        }
    }

    @Property(tries = 300)
    void relaxedChildMatchingIsAnOptimalCommonSubsequenceByExhaustiveSearch(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 40) int stacks) {
        Cct[] t = Trees.pair(seed, stacks, 4, 3);
        CommonTree ct = CommonTree.relaxed(t[0], t[1]);
        List<Integer> matched = new ArrayList<>();
        matched.add(Cct.ROOT);
        for (int x : ct.matchedInFirst()) {
            matched.add(x);
        }
        for (int x : matched) {
            int y = ct.partnerInSecond(x);
            assertThat(t[0].method(x)).isEqualTo(t[1].method(y));
            if (x != Cct.ROOT) {
                assertThat(ct.partnerInSecond(t[0].parent(x))).isEqualTo(t[1].parent(y));
            }
            List<Integer> ca = Trees.children(t[0], x);
            List<Integer> cb = Trees.children(t[1], y);
            // the chosen children pairs: increasing in both sequences, same methods
            int value = 0;
            int lastJ = -1;
            for (int i = 0; i < ca.size(); i++) {
                int p = ct.partnerInSecond(ca.get(i));
                if (p >= 0) {
                    int j = cb.indexOf(p);
                    assertThat(j).isGreaterThan(lastJ);
                    lastJ = j;
                    value += 1000 + (t[0].callSiteLine(ca.get(i)) == t[1].callSiteLine(p) ? 1 : 0);
                }
            }
            assertThat(value).isEqualTo(exhaustiveBest(t[0], ca, 0, t[1], cb, 0));
        }
    }

    @Property(tries = 300)
    void strictMatchingPairsExactlyTheNodesWithIdenticalMethodAndOrderPaths(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 40) int stacks) {
        Cct[] t = Trees.pair(seed, stacks, 5, 3);
        CommonTree ct = CommonTree.strict(t[0], t[1]);
        Map<List<Long>, Integer> byPathB = new HashMap<>();
        for (int y = 1; y < t[1].size(); y++) {
            byPathB.put(orderPath(t[1], y), y);
        }
        int expectedSize = 0;
        for (int x = 1; x < t[0].size(); x++) {
            Integer y = byPathB.get(orderPath(t[0], x));
            assertThat(ct.partnerInSecond(x)).isEqualTo(y == null ? -1 : y);
            if (y != null) {
                expectedSize++;
                assertThat(ct.partnerInFirst(y)).isEqualTo(x);
            }
        }
        assertThat(ct.size()).isEqualTo(expectedSize);
    }

    @Property(tries = 200)
    void matchingATreeWithItselfCoversEveryNode(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 60) int stacks) {
        Cct t = Trees.pair(seed, stacks, 6, 3)[0];
        for (CommonTree ct : List.of(CommonTree.relaxed(t, t), CommonTree.strict(t, t))) {
            assertThat(ct.size()).isEqualTo(t.size() - 1);
            assertThat(ct.coverage()).isEqualTo(1.0);
            for (int n = 0; n < t.size(); n++) {
                assertThat(ct.partnerInSecond(n)).isEqualTo(n);
            }
        }
    }

    @Property(tries = 200)
    void relaxedMatchesAtLeastTheSamePositionChildrenOfEveryMatchedPair(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 40) int stacks) {
        Cct[] t = Trees.pair(seed, stacks, 5, 3);
        // per parent, the strict pairs (same position, same method) form one common subsequence
        assertThat(childCountsAtLeast(CommonTree.relaxed(t[0], t[1]))).isTrue();
    }

    private static boolean childCountsAtLeast(CommonTree relaxed) {
        Cct a = relaxed.first();
        Cct b = relaxed.second();
        Set<Integer> parents = new HashSet<>();
        parents.add(Cct.ROOT);
        for (int x : relaxed.matchedInFirst()) {
            parents.add(x);
        }
        for (int x : parents) {
            List<Integer> ca = Trees.children(a, x);
            List<Integer> cb = Trees.children(b, relaxed.partnerInSecond(x));
            int samePosition = 0;
            int matched = 0;
            for (int i = 0; i < ca.size(); i++) {
                if (i < cb.size() && a.method(ca.get(i)) == b.method(cb.get(i))) {
                    samePosition++;
                }
                if (relaxed.partnerInSecond(ca.get(i)) >= 0) {
                    matched++;
                }
            }
            if (matched < samePosition) {
                return false;
            }
        }
        return true;
    }

    /** Def. 1 label path: (method, position among call-site ordered siblings) from the root. */
    private static List<Long> orderPath(Cct t, int node) {
        List<Long> out = new ArrayList<>();
        for (int n = node; n != Cct.ROOT; n = t.parent(n)) {
            out.add(0, (long) Trees.children(t, t.parent(n)).indexOf(n));
            out.add(0, t.method(n));
        }
        return out;
    }

    /** Best value (1000 per pair + 1 per same-line pair) over every increasing matching. */
    private static int exhaustiveBest(Cct a, List<Integer> ca, int i, Cct b, List<Integer> cb, int from) {
        if (i == ca.size()) {
            return 0;
        }
        int best = exhaustiveBest(a, ca, i + 1, b, cb, from);
        for (int j = from; j < cb.size(); j++) {
            if (a.method(ca.get(i)) == b.method(cb.get(j))) {
                int v = 1000 + (a.callSiteLine(ca.get(i)) == b.callSiteLine(cb.get(j)) ? 1 : 0)
                        + exhaustiveBest(a, ca, i + 1, b, cb, j + 1);
                best = Math.max(best, v);
            }
        }
        return best;
    }

    /**
     * Def. 2 by plain recursion: LCS value of two children suffixes without memo, the same
     * preference order (take, else skip in the second tree, else skip in the first), then recurse.
     */
    private static void naiveRelaxed(Cct a, int x, Cct b, int y, Map<Integer, Integer> out) {
        List<Integer> ca = Trees.children(a, x);
        List<Integer> cb = Trees.children(b, y);
        int i = 0;
        int j = 0;
        while (i < ca.size() && j < cb.size()) {
            int here = value(a, ca, i, b, cb, j);
            int cx = ca.get(i);
            int cy = cb.get(j);
            if (a.method(cx) == b.method(cy) && here == gain(a, cx, b, cy) + value(a, ca, i + 1, b, cb, j + 1)) {
                out.put(cx, cy);
                naiveRelaxed(a, cx, b, cy, out);
                i++;
                j++;
            } else if (value(a, ca, i, b, cb, j + 1) >= value(a, ca, i + 1, b, cb, j)) {
                j++;
            } else {
                i++;
            }
        }
    }

    private static int gain(Cct a, int x, Cct b, int y) {
        return 1000 + (a.callSiteLine(x) == b.callSiteLine(y) ? 1 : 0);
    }

    private static int value(Cct a, List<Integer> ca, int i, Cct b, List<Integer> cb, int j) {
        if (i == ca.size() || j == cb.size()) {
            return 0;
        }
        int best = Math.max(value(a, ca, i + 1, b, cb, j), value(a, ca, i, b, cb, j + 1));
        if (a.method(ca.get(i)) == b.method(cb.get(j))) {
            best = Math.max(best, gain(a, ca.get(i), b, cb.get(j)) + value(a, ca, i + 1, b, cb, j + 1));
        }
        return best;
    }
}
