package io.cctflow.core.diff;

import io.cctflow.core.Cct;
import java.util.Arrays;

/**
 * Matching of calling contexts by method path, call-site lines only breaking ties (issue 29 item
 * 2): the virtual roots match; under a matched pair, children of the same method are matched, as
 * many as both sides have (min(k1, k2) of a method called from k1 and k2 call sites). Only when a
 * method is called from several lines on either side do lines count, and only by their
 * <em>order</em>: the pairs keep the call-site order (an order-preserving alignment of the two
 * groups), and among such alignments the one whose pairs have the closest shares of their sides'
 * samples wins (least sum of |share_a - share_b|); an exact tie keeps the earlier call sites of the
 * first tree available, as {@link CommonTree}'s LCS does.
 *
 * <p>Consequence: the matching depends on call-site lines only through their order among siblings
 * of one method. Lines that shift between releases (code inserted or removed above a call, which
 * moves every later line of the caller) keep that order, and the matching stays what it was;
 * node identity ({@link io.cctflow.core.NodeId}: a hash of methods <em>and</em> lines) loses every
 * context below such a frame.
 *
 * <p>Cost: one pass over each matched pair's children grouped by method; an alignment table
 * (k1 + 1) x (k2 + 1) only for methods called from several lines, over {@link #MAX_CELLS} cells the
 * groups are paired in line order instead.
 */
final class MethodPathMatching {
    /** Largest alignment table built for one method's call sites under one pair of parents. */
    static final int MAX_CELLS = 1 << 20;

    private final Cct a;
    private final Cct b;
    private final ChildIndex ca;
    private final ChildIndex cb;
    private final int[] pa;
    private final int[] pb;
    private final double samplesA;
    private final double samplesB;
    private int[] count = new int[64];
    private double[] cost = new double[64];

    private MethodPathMatching(Cct a, Cct b) {
        this.a = a;
        this.b = b;
        this.ca = ChildIndex.byMethod(a);
        this.cb = ChildIndex.byMethod(b);
        this.pa = new int[a.size()];
        this.pb = new int[b.size()];
        Arrays.fill(pa, -1);
        Arrays.fill(pb, -1);
        pa[Cct.ROOT] = Cct.ROOT;
        pb[Cct.ROOT] = Cct.ROOT;
        // shares are compared as cross products (total_a * samples_b vs total_b * samples_a)
        this.samplesA = Math.max(1, a.total(Cct.ROOT));
        this.samplesB = Math.max(1, b.total(Cct.ROOT));
    }

    /** Partners of both trees: {partnerOfA, partnerOfB}, roots matched, -1 for unmatched nodes. */
    static int[][] match(Cct a, Cct b) {
        MethodPathMatching m = new MethodPathMatching(a, b);
        // parents precede children: a node's partner is known before its children are matched
        for (int n = 0; n < a.size(); n++) {
            if (m.pa[n] >= 0) {
                m.matchChildren(n, m.pa[n]);
            }
        }
        return new int[][] {m.pa, m.pb};
    }

    private void matchChildren(int n, int m) {
        int i = ca.first[n];
        int iTo = ca.first[n + 1];
        int j = cb.first[m];
        int jTo = cb.first[m + 1];
        while (i < iTo && j < jTo) {
            long mi = a.method(ca.kids[i]);
            long mj = b.method(cb.kids[j]);
            if (mi < mj) {
                i++;
            } else if (mj < mi) {
                j++;
            } else {
                int iEnd = i + 1;
                while (iEnd < iTo && a.method(ca.kids[iEnd]) == mi) {
                    iEnd++;
                }
                int jEnd = j + 1;
                while (jEnd < jTo && b.method(cb.kids[jEnd]) == mi) {
                    jEnd++;
                }
                if (iEnd - i == 1 && jEnd - j == 1) {
                    pair(ca.kids[i], cb.kids[j]);
                } else {
                    align(i, iEnd - i, j, jEnd - j);
                }
                i = iEnd;
                j = jEnd;
            }
        }
    }

    /** Order-preserving alignment of k1 and k2 call sites of one method: most pairs, then closest shares. */
    private void align(int i0, int k1, int j0, int k2) {
        if ((long) (k1 + 1) * (k2 + 1) > MAX_CELLS) {
            for (int k = 0; k < Math.min(k1, k2); k++) {
                pair(ca.kids[i0 + k], cb.kids[j0 + k]);
            }
            return;
        }
        int w = k2 + 1;
        int cells = (k1 + 1) * w;
        if (count.length < cells) {
            count = new int[Math.max(cells, count.length * 2)];
            cost = new double[count.length];
        }
        Arrays.fill(count, 0, cells, 0);
        Arrays.fill(cost, 0, cells, 0.0);
        for (int i = k1 - 1; i >= 0; i--) {
            for (int j = k2 - 1; j >= 0; j--) {
                int at = i * w + j;
                int best = better(at + w, at + 1) ? at + w : at + 1;
                int takeCount = count[at + w + 1] + 1;
                double takeCost = cost[at + w + 1] + distance(ca.kids[i0 + i], cb.kids[j0 + j]);
                if (takeCount > count[best] || (takeCount == count[best] && takeCost <= cost[best])) {
                    count[at] = takeCount;
                    cost[at] = takeCost;
                } else {
                    count[at] = count[best];
                    cost[at] = cost[best];
                }
            }
        }
        int i = 0;
        int j = 0;
        while (i < k1 && j < k2) {
            int at = i * w + j;
            int x = ca.kids[i0 + i];
            int y = cb.kids[j0 + j];
            if (count[at] == count[at + w + 1] + 1 && cost[at] == cost[at + w + 1] + distance(x, y)) {
                pair(x, y);
                i++;
                j++;
            } else if (same(at, at + 1)) {
                j++;
            } else {
                i++;
            }
        }
    }

    /** Whether the cell {@code x} is strictly better than {@code y}: more pairs, or as many and less cost. */
    private boolean better(int x, int y) {
        return count[x] > count[y] || (count[x] == count[y] && cost[x] < cost[y]);
    }

    private boolean same(int x, int y) {
        return count[x] == count[y] && cost[x] == cost[y];
    }

    /** |share_a - share_b| scaled by both sides' samples: exact for counts below 2^26. */
    private double distance(int x, int y) {
        return Math.abs(a.total(x) * samplesB - b.total(y) * samplesA);
    }

    private void pair(int x, int y) {
        pa[x] = y;
        pb[y] = x;
    }
}
