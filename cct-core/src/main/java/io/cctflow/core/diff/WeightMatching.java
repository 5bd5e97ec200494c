package io.cctflow.core.diff;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Iterative weight matching (seed 000 Sect. 3.4, after Zhuang et al.): repeatedly take the matched
 * pair with the largest pweight difference and adjust it, until the adjusted overlap reaches the
 * noise threshold or {@code maxNodes} pairs are reported. The pairs taken are the significant
 * weight differences, largest first. The noise threshold is the overlap of two runs of the same
 * deployment over the same window; a threshold of 1.0 ranks every changed pair.
 *
 * <p>Adjustment: both sides' pweights sum to 1 over the common tree, so 1 - overlap is half the
 * sum of |pweight_1 - pweight_2|. Adjusting a pair removes its half of that sum: the overlap grows
 * by |difference| / 2, and adjusting every changed pair reaches exactly 1. (Raising the min to the
 * max would grow it by the whole difference and reach 1 after only the pairs of one sign.) Pairs
 * are independent, so the iteration is a sort by |difference| with a running overlap.
 */
public final class WeightMatching {
    private WeightMatching() {}

    /**
     * @param noiseThreshold stop once the adjusted overlap is at least this (0..1)
     * @param maxNodes stop after this many pairs; 0 or less for no limit
     */
    public static List<WeightDifference> rank(CommonTree common, Weight weight, double noiseThreshold, int maxNodes) {
        int[] nodes = common.matchedInFirst();
        double[][] pw = Overlap.pweights(common, nodes, weight);
        List<WeightDifference> out = new ArrayList<>();
        if (pw == null) {
            return out;
        }
        double overlap = 0;
        for (int k = 0; k < nodes.length; k++) {
            overlap += Math.min(pw[0][k], pw[1][k]);
        }
        Integer[] idx = new Integer[nodes.length];
        for (int k = 0; k < nodes.length; k++) {
            idx[k] = k;
        }
        Arrays.sort(idx, (x, y) -> {
            int c = Double.compare(Math.abs(pw[1][y] - pw[0][y]), Math.abs(pw[1][x] - pw[0][x]));
            return c != 0 ? c : Integer.compare(nodes[x], nodes[y]);
        });
        for (int k : idx) {
            if (overlap >= noiseThreshold || (maxNodes > 0 && out.size() >= maxNodes)) {
                break;
            }
            double diff = Math.abs(pw[1][k] - pw[0][k]);
            if (diff == 0) {
                break;
            }
            overlap = Math.min(1.0, overlap + diff / 2);
            int x = nodes[k];
            out.add(new WeightDifference(x, common.partnerInSecond(x), common.first().method(x),
                    pw[0][k], pw[1][k], overlap));
        }
        return out;
    }
}
