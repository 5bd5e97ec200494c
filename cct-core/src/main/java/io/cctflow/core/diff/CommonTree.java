package io.cctflow.core.diff;

import io.cctflow.core.Cct;
import java.util.Arrays;

/**
 * The common tree of two CCTs (seed 000 Sect. 2.2.2): which node of one tree is equivalent to which
 * node of the other.
 *
 * <p>{@link #strict} is Def. 1: same method, same position among the (call-site ordered) siblings,
 * equivalent parents. {@link #relaxed} is Def. 2: same method, equivalent parents, and the matched
 * children of a matched pair form a common subsequence of the two children sequences ordered by
 * call-site line (Rules 3 and 4 coincide under that order). The subsequence is a longest one keyed
 * by method; among longest ones, the one with most pairs on the same call-site line; remaining ties
 * keep the earlier child of the first tree (Figure 3 (b): H5~H4 wins over I10~I2).
 *
 * <p>Cost: one LCS per matched pair over that pair's children only, after trimming the common
 * prefix of identical (method, line) children. A pair whose children table would exceed
 * {@link #MAX_LCS_CELLS} falls back to matching identical (method, line) children only.
 *
 * <p>{@link #byMethodPath} is the projection the product compares by (issue 29): contexts matched by
 * method path, call-site lines only breaking ties.
 *
 * <p>The virtual roots always match each other; {@link #size()} counts the other pairs.
 */
public final class CommonTree {
    /** Largest LCS table (cells) built for one pair of parents. */
    public static final int MAX_LCS_CELLS = 1 << 22;

    private final Cct a;
    private final Cct b;
    private final int[] partnerOfA;
    private final int[] partnerOfB;
    private final int size;

    private CommonTree(Cct a, Cct b, int[] partnerOfA, int[] partnerOfB, int size) {
        this.a = a;
        this.b = b;
        this.partnerOfA = partnerOfA;
        this.partnerOfB = partnerOfB;
        this.size = size;
    }

    /** Relaxed common-tree matching (Def. 2) of two whole trees. */
    public static CommonTree relaxed(Cct a, Cct b) {
        return relaxed(a, b, null, null);
    }

    /** Strict common-tree matching (Def. 1) of two whole trees. */
    public static CommonTree strict(Cct a, Cct b) {
        ChildIndex ca = new ChildIndex(a, null);
        ChildIndex cb = new ChildIndex(b, null);
        int[] pa = newPartners(a.size());
        int[] pb = newPartners(b.size());
        int size = 0;
        for (int n = 0; n < a.size(); n++) {
            int m = pa[n];
            if (m < 0) {
                continue;
            }
            int k = Math.min(ca.count(n), cb.count(m));
            for (int i = 0; i < k; i++) {
                int x = ca.kids[ca.first[n] + i];
                int y = cb.kids[cb.first[m] + i];
                if (a.method(x) == b.method(y)) {
                    pa[x] = y;
                    pb[y] = x;
                    size++;
                }
            }
        }
        return new CommonTree(a, b, pa, pb, size);
    }

    /**
     * Matching by method path, call-site lines only breaking ties ({@link MethodPathMatching}):
     * what stays matched when lines shift between releases. Unlike {@link #relaxed} it also matches
     * siblings whose call order changed.
     */
    public static CommonTree byMethodPath(Cct a, Cct b) {
        int[][] partners = MethodPathMatching.match(a, b);
        int size = 0;
        for (int n = 1; n < a.size(); n++) {
            size += partners[0][n] >= 0 ? 1 : 0;
        }
        return new CommonTree(a, b, partners[0], partners[1], size);
    }

    /** Relaxed matching with the marked subtrees (already excised) left out of both trees. */
    static CommonTree relaxed(Cct a, Cct b, boolean[] excludedA, boolean[] excludedB) {
        ChildIndex ca = new ChildIndex(a, excludedA);
        ChildIndex cb = new ChildIndex(b, excludedB);
        int[] pa = newPartners(a.size());
        int[] pb = newPartners(b.size());
        Lcs lcs = new Lcs();
        int size = 0;
        for (int n = 0; n < a.size(); n++) {
            int m = pa[n];
            if (m >= 0) {
                size += lcs.matchChildren(a, ca, n, b, cb, m, pa, pb);
            }
        }
        return new CommonTree(a, b, pa, pb, size);
    }

    private static int[] newPartners(int n) {
        int[] p = new int[n];
        Arrays.fill(p, -1);
        p[Cct.ROOT] = Cct.ROOT;
        return p;
    }

    /** The same pairs seen from the second tree. */
    public CommonTree swap() {
        return new CommonTree(b, a, partnerOfB, partnerOfA, size);
    }

    public Cct first() {
        return a;
    }

    public Cct second() {
        return b;
    }

    /** The node of the second tree equivalent to {@code nodeOfFirst}, or -1. */
    public int partnerInSecond(int nodeOfFirst) {
        return partnerOfA[nodeOfFirst];
    }

    /** The node of the first tree equivalent to {@code nodeOfSecond}, or -1. */
    public int partnerInFirst(int nodeOfSecond) {
        return partnerOfB[nodeOfSecond];
    }

    /** Matched pairs, not counting the virtual roots. */
    public int size() {
        return size;
    }

    /** Matched nodes of the first tree in index order (parents first), without the root. */
    public int[] matchedInFirst() {
        int[] out = new int[size];
        int k = 0;
        for (int n = 1; n < partnerOfA.length; n++) {
            if (partnerOfA[n] >= 0) {
                out[k++] = n;
            }
        }
        return out;
    }

    /** |CT| / |CCT1| * |CT| / |CCT2| (virtual roots not counted; 1.0 for two empty trees). */
    public double coverage() {
        return ratio(size, a.size() - 1) * ratio(size, b.size() - 1);
    }

    private static double ratio(int common, int all) {
        return all == 0 ? 1.0 : (double) common / all;
    }

    /** Weighted LCS over two children sequences, with a reused table. */
    private static final class Lcs {
        private int[] table = new int[64];

        int matchChildren(Cct a, ChildIndex ca, int n, Cct b, ChildIndex cb, int m, int[] pa, int[] pb) {
            int aFrom = ca.first[n];
            int aTo = ca.first[n + 1];
            int bFrom = cb.first[m];
            int bTo = cb.first[m + 1];
            int[] ak = ca.kids;
            int[] bk = cb.kids;
            int matched = 0;
            // identical (method, line) prefix: matching it is optimal and what the traceback would pick
            while (aFrom < aTo && bFrom < bTo && same(a, ak[aFrom], b, bk[bFrom])) {
                matched += pair(ak[aFrom++], bk[bFrom++], pa, pb);
            }
            int k1 = aTo - aFrom;
            int k2 = bTo - bFrom;
            if (k1 == 0 || k2 == 0) {
                return matched;
            }
            if ((long) (k1 + 1) * (k2 + 1) > MAX_LCS_CELLS) {
                return matched + identicalOnly(a, ak, aFrom, aTo, b, bk, bFrom, bTo, pa, pb);
            }
            int w = k2 + 1;
            int cells = (k1 + 1) * w;
            if (table.length < cells) {
                table = new int[Math.max(cells, table.length * 2)];
            }
            int[] t = table;
            int unit = Math.min(k1, k2) + 1; // value = count * unit + sameLine, compared as one int
            Arrays.fill(t, k1 * w, cells, 0);
            for (int i = k1 - 1; i >= 0; i--) {
                int row = i * w;
                t[row + k2] = 0;
                int x = ak[aFrom + i];
                long mx = a.method(x);
                int lx = a.callSiteLine(x);
                for (int j = k2 - 1; j >= 0; j--) {
                    int best = Math.max(t[row + w + j], t[row + j + 1]);
                    int y = bk[bFrom + j];
                    if (b.method(y) == mx) {
                        int take = t[row + w + j + 1] + unit + (b.callSiteLine(y) == lx ? 1 : 0);
                        if (take > best) {
                            best = take;
                        }
                    }
                    t[row + j] = best;
                }
            }
            int i = 0;
            int j = 0;
            while (i < k1 && j < k2) {
                int x = ak[aFrom + i];
                int y = bk[bFrom + j];
                int here = t[i * w + j];
                if (a.method(x) == b.method(y)
                        && here == t[(i + 1) * w + j + 1] + unit + (a.callSiteLine(x) == b.callSiteLine(y) ? 1 : 0)) {
                    matched += pair(x, y, pa, pb);
                    i++;
                    j++;
                } else if (t[i * w + j + 1] >= t[(i + 1) * w + j]) {
                    j++; // keep the earlier child of the first tree available
                } else {
                    i++;
                }
            }
            return matched;
        }

        private static boolean same(Cct a, int x, Cct b, int y) {
            return a.method(x) == b.method(y) && a.callSiteLine(x) == b.callSiteLine(y);
        }

        private static int pair(int x, int y, int[] pa, int[] pb) {
            pa[x] = y;
            pb[y] = x;
            return 1;
        }

        /** Merge of two (line, method)-sorted sequences, pairing identical children. */
        private static int identicalOnly(
                Cct a, int[] ak, int i, int aTo, Cct b, int[] bk, int j, int bTo, int[] pa, int[] pb) {
            int matched = 0;
            while (i < aTo && j < bTo) {
                int x = ak[i];
                int y = bk[j];
                int c = Integer.compare(a.callSiteLine(x), b.callSiteLine(y));
                if (c == 0) {
                    c = Long.compare(a.method(x), b.method(y));
                }
                if (c == 0) {
                    matched += pair(x, y, pa, pb);
                    i++;
                    j++;
                } else if (c < 0) {
                    i++;
                } else {
                    j++;
                }
            }
            return matched;
        }
    }
}
