package io.cctflow.core.diff;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class MethodPathMatchingTest {

    /**
     * Second tree with its call-site lines shifted as between two releases: in every caller method,
     * lines from a random cut on move down by a random amount (code inserted above the calls), the
     * same for every context of that caller. Node indexes stay those of {@code tree}.
     */
    static Cct shifted(Cct tree, long seed) {
        Random r = new Random(seed);
        Map<Long, int[]> cutAndShift = new HashMap<>();
        Cct out = new Cct(tree.size());
        out.addCounts(Cct.ROOT, tree.self(Cct.ROOT), tree.total(Cct.ROOT));
        for (int n = 1; n < tree.size(); n++) {
            long caller = tree.parent(n) == Cct.ROOT ? -1 : tree.method(tree.parent(n));
            int[] cs = cutAndShift.computeIfAbsent(caller, c -> new int[] {r.nextInt(5), 1 + r.nextInt(40)});
            int line = tree.callSiteLine(n);
            int node = out.child(tree.parent(n), tree.method(n), line >= cs[0] ? line + cs[1] : line);
            assertThat(node).as("shifted copy keeps node indexes").isEqualTo(n);
            out.addCounts(node, tree.self(n), tree.total(n));
        }
        return out;
    }

    @Property(tries = 300)
    void linesShiftedBetweenReleasesLeaveTheMatchingUnchanged(@ForAll long seed) {
        Cct[] t = Trees.pair(seed, 60, 6, 5);
        Cct moved = shifted(t[1], seed ^ 0x5eed);
        CommonTree plain = CommonTree.byMethodPath(t[0], t[1]);
        CommonTree afterShift = CommonTree.byMethodPath(t[0], moved);
        for (int n = 0; n < t[0].size(); n++) {
            assertThat(afterShift.partnerInSecond(n)).as("partner of %s", Trees.path(t[0], n))
                    .isEqualTo(plain.partnerInSecond(n));
        }
        assertThat(afterShift.size()).isEqualTo(plain.size());
        checkAgainstBruteForce(afterShift);
        checkAgainstBruteForce(plain);
    }

    @Property(tries = 300)
    void everyGroupOfCallSitesIsAlignedOptimally(@ForAll long seed) {
        Cct[] t = Trees.pair(seed, 40, 5, 3);
        checkAgainstBruteForce(CommonTree.byMethodPath(t[0], t[1]));
    }

    @Test
    void shiftedLinesBreakNodeIdentityButNotMethodPaths() {
        Cct a = Trees.of("A0/B1/D2", 5, "A0/B1/E3", 3, "A0/C4/D1", 2);
        Cct b = Trees.of("A0/B6/D7", 5, "A0/B6/E8", 3, "A0/C9/D1", 2);
        assertThat(CommonTree.byMethodPath(a, b).size()).isEqualTo(a.size() - 1);
        int byId = 0;
        for (int n = 1; n < a.size(); n++) {
            byId += b.indexOf(a.id(n)) > Cct.ROOT ? 1 : 0;
        }
        assertThat(byId).as("only A0 keeps its id").isEqualTo(1);
    }

    @Test
    void reorderedCallsAreMatchedWhereTheRelaxedTreeLosesOne() {
        Cct a = Trees.of("A0/B1", 1, "A0/C2", 1);
        Cct b = Trees.of("A0/C1", 1, "A0/B2", 1);
        assertThat(CommonTree.byMethodPath(a, b).size()).isEqualTo(3);
        assertThat(CommonTree.relaxed(a, b).size()).isEqualTo(2);
    }

    @Test
    void aMethodCalledFromSeveralLinesPairsTheCallSitesWithTheClosestShares() {
        // B dropped the first call site of D; its remaining one carries the share of A's second
        Cct a = Trees.of("A0/D10", 90, "A0/D20", 10);
        Cct b = Trees.of("A0/D25", 10, "A0/X1", 90);
        CommonTree ct = CommonTree.byMethodPath(a, b);
        assertThat(ct.partnerInSecond(Trees.node(a, "A0/D20"))).isEqualTo(Trees.node(b, "A0/D25"));
        assertThat(ct.partnerInSecond(Trees.node(a, "A0/D10"))).isEqualTo(-1);
    }

    /**
     * Brute-force reference: every matched node's parent is matched to its partner's parent, with
     * the same method; under every matched pair, each method's call sites are paired by an
     * order-preserving alignment with as many pairs as the smaller side has and the least sum of
     * share distances, found by enumerating every alignment.
     */
    static void checkAgainstBruteForce(CommonTree ct) {
        Cct a = ct.first();
        Cct b = ct.second();
        int size = 0;
        for (int n = 1; n < a.size(); n++) {
            int m = ct.partnerInSecond(n);
            if (m < 0) {
                continue;
            }
            size++;
            assertThat(ct.partnerInFirst(m)).isEqualTo(n);
            assertThat(b.method(m)).isEqualTo(a.method(n));
            assertThat(ct.partnerInSecond(a.parent(n))).isEqualTo(b.parent(m));
        }
        assertThat(ct.size()).isEqualTo(size);
        double sa = a.total(Cct.ROOT);
        double sb = b.total(Cct.ROOT);
        for (int n = 0; n < a.size(); n++) {
            int m = ct.partnerInSecond(n);
            if (m < 0) {
                continue;
            }
            Map<Long, List<Integer>> groupsA = groups(a, n);
            Map<Long, List<Integer>> groupsB = groups(b, m);
            for (Map.Entry<Long, List<Integer>> g : groupsA.entrySet()) {
                List<Integer> xs = g.getValue();
                List<Integer> ys = groupsB.getOrDefault(g.getKey(), List.of());
                int[] chosen = new int[xs.size()];
                double chosenCost = 0;
                int chosenCount = 0;
                int lastJ = -1;
                for (int i = 0; i < xs.size(); i++) {
                    int partner = ct.partnerInSecond(xs.get(i));
                    chosen[i] = partner < 0 ? -1 : ys.indexOf(partner);
                    if (partner >= 0) {
                        assertThat(chosen[i]).as("call order kept").isGreaterThan(lastJ);
                        lastJ = chosen[i];
                        chosenCount++;
                        chosenCost += distance(a, xs.get(i), b, partner, sa, sb);
                    }
                }
                double[] best = best(a, xs, b, ys, 0, 0, sa, sb);
                assertThat(chosenCount).isEqualTo((int) best[0]).isEqualTo(Math.min(xs.size(), ys.size()));
                assertThat(chosenCost).isEqualTo(best[1]);
            }
        }
    }

    /** {most pairs, least cost} over every order-preserving alignment of xs[i..] and ys[j..]. */
    private static double[] best(Cct a, List<Integer> xs, Cct b, List<Integer> ys, int i, int j, double sa,
            double sb) {
        double[] out = {0, 0};
        for (int x = i; x < xs.size(); x++) {
            for (int y = j; y < ys.size(); y++) {
                double[] rest = best(a, xs, b, ys, x + 1, y + 1, sa, sb);
                double count = rest[0] + 1;
                double cost = rest[1] + distance(a, xs.get(x), b, ys.get(y), sa, sb);
                if (count > out[0] || (count == out[0] && cost < out[1])) {
                    out = new double[] {count, cost};
                }
            }
        }
        return out;
    }

    private static double distance(Cct a, int x, Cct b, int y, double sa, double sb) {
        return Math.abs(a.total(x) * sb - b.total(y) * sa);
    }

    /** Children of a node by method, each group in call-site order, by a scan of the whole tree. */
    private static Map<Long, List<Integer>> groups(Cct t, int parent) {
        Map<Long, List<Integer>> out = new HashMap<>();
        for (int c : Trees.children(t, parent)) {
            out.computeIfAbsent(t.method(c), k -> new ArrayList<>()).add(c);
        }
        return out;
    }
}
