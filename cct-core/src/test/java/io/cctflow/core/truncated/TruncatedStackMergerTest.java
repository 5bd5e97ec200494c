package io.cctflow.core.truncated;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import io.cctflow.core.NodeId;
import org.junit.jupiter.api.Test;

class TruncatedStackMergerTest {
    private static final long A = method("a");
    private static final long B = method("b");
    private static final long C = method("c");
    private static final long D = method("d");
    private static final long E = method("e");
    private static final long F = method("f");
    private static final long G = method("g");
    private static final int LINE = 7;
    /** Line given for a truncated stack's outermost frame: its caller is missing, so it is noise. */
    private static final int UNKNOWN = 999;

    private static long method(String name) {
        return MethodId.of("Fig35", name, "()V");
    }

    /** The node at this path from the root (all call-site lines {@link #LINE}), or -1. */
    private static int node(Cct tree, long... path) {
        long id = NodeId.ROOT;
        for (long m : path) {
            id = NodeId.child(id, m, LINE);
        }
        return tree.indexOf(id);
    }

    private static int[] lines(int n) {
        int[] l = new int[n];
        java.util.Arrays.fill(l, LINE);
        l[0] = UNKNOWN;
        return l;
    }

    /**
     * Seed 002 Figure 3.5 (a), reconstructed from the text (the figure itself is an image): the only
     * d nodes are d1 = a-b-c-d and d2 = a-c-d, and only d1 has a child e (e1).
     */
    private static Cct figure35Tree() {
        Cct tree = new Cct();
        tree.addStack(new long[] {A, B, C, D, E, F}, new int[] {LINE, LINE, LINE, LINE, LINE, LINE}, 6, 1);
        tree.addStack(new long[] {A, C, D}, new int[] {LINE, LINE, LINE}, 3, 1);
        return tree;
    }

    @Test
    void figure35MergesTruncatedStackDEGUnderUniqueMatchE1() {
        Cct tree = figure35Tree();
        int e1 = node(tree, A, B, C, D, E);
        TruncatedStackMerger merger = new TruncatedStackMerger(0);

        MergeResult result = merger.tryMerge(tree, new long[] {D, E, G}, lines(3), 3, 5);

        assertThat(result).isEqualTo(MergeResult.MERGED);
        int g = node(tree, A, B, C, D, E, G);
        assertThat(g).as("g added below e1").isPositive();
        assertThat(tree.parent(g)).isEqualTo(e1);
        assertThat(merger.lastLeaf()).isEqualTo(g);
        assertThat(tree.self(g)).isEqualTo(5);
        assertThat(tree.total(g)).isEqualTo(5);
        // as if a-b-c-d-e-g had been sampled: totals on the whole path, the candidate's ancestors too
        assertThat(tree.total(Cct.ROOT)).isEqualTo(7);
        assertThat(tree.total(node(tree, A))).isEqualTo(7);
        for (long[] path : new long[][] {{A, B}, {A, B, C}, {A, B, C, D}, {A, B, C, D, E}}) {
            assertThat(tree.total(node(tree, path))).as("total of %d-frame path", path.length).isEqualTo(6);
        }
        assertThat(tree.total(node(tree, A, C, D))).as("d2 untouched").isEqualTo(1);
        assertThat(tree.self(e1)).isZero();
        assertThat(tree.size()).isEqualTo(1 + 6 + 2 + 1);
        assertThat(merger.stats().merged()).isEqualTo(1);
        assertThat(merger.stats().samples(MergeResult.MERGED)).isEqualTo(5);
    }

    @Test
    void figure35AmbiguityCaseCDNeverMerges() {
        Cct tree = figure35Tree();
        int sizeBefore = tree.size();
        TruncatedStackMerger merger = new TruncatedStackMerger(0);

        MergeResult result = merger.tryMerge(tree, new long[] {C, D}, lines(2), 2, 3);

        assertThat(result).isEqualTo(MergeResult.AMBIGUOUS);
        assertThat(result.retryable()).isFalse();
        assertThat(tree.size()).isEqualTo(sizeBefore);
        assertThat(tree.total(Cct.ROOT)).isEqualTo(2);
        assertThat(merger.stats().ambiguous()).isEqualTo(1);
        assertThat(merger.stats().samples(MergeResult.AMBIGUOUS)).isEqualTo(3);
        assertThat(merger.lastLeaf()).isEqualTo(Cct.NONE);
    }

    @Test
    void matchThresholdDemandsMoreMatchedFramesThanItsValue() {
        long[] pss = {D, E, G};
        // e1 is the unique candidate after 2 frames: enough for threshold 1 ...
        Cct tree = figure35Tree();
        assertThat(new TruncatedStackMerger(1).tryMerge(tree, pss, lines(3), 3, 1)).isEqualTo(MergeResult.MERGED);
        // ... not for threshold 2, and e1 has no child g, so no candidate is left
        Cct other = figure35Tree();
        assertThat(new TruncatedStackMerger(2).tryMerge(other, pss, lines(3), 3, 1))
                .isEqualTo(MergeResult.NO_CANDIDATE);
        // a stack no longer than the threshold can never merge, even with one candidate
        assertThat(new TruncatedStackMerger(2).tryMerge(other, new long[] {E, F}, lines(2), 2, 1))
                .isEqualTo(MergeResult.AMBIGUOUS);
    }

    @Test
    void noCandidateMergesOnRetryAfterTheTreeHasGrown() {
        Cct tree = figure35Tree();
        TruncatedStackMerger merger = new TruncatedStackMerger(2);
        long[] pss = {D, E, G};
        assertThat(merger.tryMerge(tree, pss, lines(3), 3, 4)).isEqualTo(MergeResult.NO_CANDIDATE);
        assertThat(MergeResult.NO_CANDIDATE.retryable()).isTrue();

        tree.addStack(new long[] {A, B, C, D, E, G}, new int[] {LINE, LINE, LINE, LINE, LINE, LINE}, 6, 1);
        assertThat(merger.tryMerge(tree, pss, lines(3), 3, 4)).isEqualTo(MergeResult.MERGED);

        assertThat(tree.self(node(tree, A, B, C, D, E, G))).isEqualTo(5);
        assertThat(merger.stats().noCandidate()).isEqualTo(1);
        assertThat(merger.stats().merged()).isEqualTo(1);
        assertThat(merger.stats().attempts()).isEqualTo(2);
    }

    @Test
    void framesBelowTheOutermostMustMatchTheirCallSiteLine() {
        Cct tree = figure35Tree();
        TruncatedStackMerger merger = new TruncatedStackMerger(0);
        // e called from another line of d is another node: d1 has no such child, d2 neither
        int[] otherLine = {UNKNOWN, LINE + 1};
        assertThat(merger.tryMerge(tree, new long[] {D, E}, otherLine, 2, 1)).isEqualTo(MergeResult.NO_CANDIDATE);
        // the outermost frame's line is ignored: f is unique whatever line it claims
        assertThat(merger.tryMerge(tree, new long[] {F}, new int[] {-5}, 1, 1)).isEqualTo(MergeResult.MERGED);
        assertThat(tree.self(node(tree, A, B, C, D, E, F))).isEqualTo(2);
    }

    @Test
    void indexFollowsNodesCreatedAfterItWasBuilt() {
        Cct tree = new Cct();
        MethodNodeIndex index = new MethodNodeIndex(tree);
        TruncatedStackMerger merger = new TruncatedStackMerger(0);
        assertThat(merger.tryMerge(index, new long[] {C, D}, lines(2), 2, 1)).isEqualTo(MergeResult.NO_CANDIDATE);

        tree.addStack(new long[] {A, C}, new int[] {LINE, LINE}, 2, 1);
        assertThat(merger.tryMerge(index, new long[] {C, D}, lines(2), 2, 1)).isEqualTo(MergeResult.MERGED);
        assertThat(tree.total(node(tree, A, C, D))).isEqualTo(1);
        // the node the merge itself created is indexed by the next attempt
        assertThat(merger.tryMerge(index, new long[] {D}, lines(1), 1, 2)).isEqualTo(MergeResult.MERGED);
        assertThat(tree.self(node(tree, A, C, D))).isEqualTo(3);
    }

    @Test
    void rejectsEmptyTruncatedStack() {
        TruncatedStackMerger merger = new TruncatedStackMerger(0);
        assertThatThrownBy(() -> merger.tryMerge(new Cct(), new long[0], new int[0], 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("depth");
        assertThatThrownBy(() -> new TruncatedStackMerger(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
