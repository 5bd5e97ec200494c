package io.cctflow.core.diff;

import io.cctflow.core.Cct;
import java.util.ArrayList;
import java.util.List;

/**
 * PARCS' incremental topological comparison and weight matching (seed 000 Sect. 3.3-3.5).
 *
 * <ol>
 *   <li>Stage 1 excises every subtree rooted at a call to an added or deleted method, in either
 *       tree; the caller is the suspect.
 *   <li>Relaxed common-tree matching then runs once over what is left. Def. 2 is top-down, so this
 *       equals matching the subtrees of the matched highest modified dominators separately (stage
 *       2) and then the rest (stage 3). An unmatched subtree whose root has a modified proper
 *       ancestor lies under a matched highest modified dominator (all its ancestors are matched):
 *       stage 2, suspects the modified ancestors from the closest upwards. Any other unmatched
 *       subtree, including one rooted at an unmatched modified node, is stage 3.
 *   <li>The common tree left is topologically identical on both sides; overlap, score and
 *       iterative weight matching run on it.
 * </ol>
 *
 * Linear in the tree sizes apart from the per-parent LCS of {@link CommonTree}.
 */
public final class TreeDiff {
    private TreeDiff() {}

    /**
     * @param first old revision (or first instance/window)
     * @param second new revision
     * @param rankBy weight the significant differences are ranked by
     * @param noiseThreshold overlap expected from noise alone; weight matching stops there
     * @param maxNodes most weight differences to report; 0 or less for no limit
     */
    public static DiffResult compare(
            Cct first, Cct second, ChangeList changes, Weight rankBy, double noiseThreshold, int maxNodes) {
        List<Difference> diffs = new ArrayList<>();
        boolean[] excA = stage1(first, changes, false, diffs);
        boolean[] excB = stage1(second, changes, true, diffs);
        CommonTree common = CommonTree.relaxed(first, second, excA, excB);
        unmatched(first, excA, common, false, changes, diffs);
        unmatched(second, excB, common, true, changes, diffs);
        diffs.sort((x, y) -> x.stage() != y.stage()
                ? x.stage().compareTo(y.stage())
                : x.inSecond() != y.inSecond() ? Boolean.compare(x.inSecond(), y.inSecond())
                : Integer.compare(x.root(), y.root()));
        List<StageSummary> stages = new ArrayList<>();
        for (Stage s : Stage.values()) {
            int[] c = new int[4];
            for (Difference d : diffs) {
                if (d.stage() == s) {
                    c[d.inSecond() ? 2 : 0]++;
                    c[d.inSecond() ? 3 : 1] += d.nodes();
                }
            }
            stages.add(new StageSummary(s, c[0], c[1], c[2], c[3]));
        }
        return new DiffResult(
                common,
                common.size(),
                Overlap.of(common, Weight.SELF),
                Overlap.of(common, Weight.TOTAL),
                Overlap.score(common, Weight.SELF, Weight.TOTAL),
                List.copyOf(stages),
                List.copyOf(diffs),
                List.copyOf(WeightMatching.rank(common, rankBy, noiseThreshold, maxNodes)));
    }

    /** Marks the subtrees under added/deleted calls, records one difference per subtree. */
    private static boolean[] stage1(Cct t, ChangeList changes, boolean inSecond, List<Difference> out) {
        int n = t.size();
        boolean[] excluded = new boolean[n];
        int[] rootOf = new int[n];
        int[] sizes = new int[n];
        for (int x = 1; x < n; x++) {
            int p = t.parent(x);
            if (excluded[p]) {
                excluded[x] = true;
                rootOf[x] = rootOf[p];
                sizes[rootOf[x]]++;
            } else if (changes.isAdded(t.method(x)) || changes.isDeleted(t.method(x))) {
                excluded[x] = true;
                rootOf[x] = x;
                sizes[x] = 1;
            }
        }
        for (int x = 1; x < n; x++) {
            if (excluded[x] && rootOf[x] == x) {
                int p = t.parent(x);
                Stage s = changes.isAdded(t.method(x)) ? Stage.ADDED : Stage.DELETED;
                out.add(new Difference(s, inSecond, x, t.method(x), sizes[x], new int[] {p}, new long[] {t.method(p)}));
            }
        }
        return excluded;
    }

    /** Stage 2 and 3: maximal unmatched subtrees of what stage 1 left. */
    private static void unmatched(
            Cct t, boolean[] excluded, CommonTree common, boolean inSecond, ChangeList changes, List<Difference> out) {
        int n = t.size();
        int[] remaining = new int[n];
        for (int x = n - 1; x >= 1; x--) {
            if (!excluded[x]) {
                remaining[x]++;
                remaining[t.parent(x)] += remaining[x];
            }
        }
        for (int x = 1; x < n; x++) {
            int p = t.parent(x);
            if (excluded[x] || partner(common, inSecond, x) >= 0 || partner(common, inSecond, p) < 0) {
                continue;
            }
            int count = 0;
            for (int q = p; q != Cct.ROOT; q = t.parent(q)) {
                if (changes.isModified(t.method(q))) {
                    count++;
                }
            }
            int[] suspects;
            Stage stage;
            if (count > 0) {
                stage = Stage.MODIFIED;
                suspects = new int[count];
                int k = 0;
                for (int q = p; q != Cct.ROOT; q = t.parent(q)) {
                    if (changes.isModified(t.method(q))) {
                        suspects[k++] = q;
                    }
                }
            } else {
                stage = Stage.SIDE_EFFECT;
                suspects = new int[] {p};
            }
            long[] methods = new long[suspects.length];
            for (int k = 0; k < suspects.length; k++) {
                methods[k] = t.method(suspects[k]);
            }
            out.add(new Difference(stage, inSecond, x, t.method(x), remaining[x], suspects, methods));
        }
    }

    private static int partner(CommonTree common, boolean inSecond, int node) {
        return inSecond ? common.partnerInFirst(node) : common.partnerInSecond(node);
    }
}
