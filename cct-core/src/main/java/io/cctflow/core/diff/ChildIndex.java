package io.cctflow.core.diff;

import io.cctflow.core.Cct;
import java.util.Arrays;

/**
 * Children of every node of a {@link Cct} as CSR arrays: the children of {@code p} are
 * {@code kids[first[p] .. first[p + 1] - 1]}, ordered by call-site line, then method id (the
 * sibling order of seed 000 Sect. 2.2.2; a sampled CCT has no other stable order).
 *
 * <p>Nodes marked in {@code excluded} (and, because a parent is listed before its children, every
 * node under them) are left out, which is how excised subtrees disappear from later matching.
 */
final class ChildIndex {
    final int[] first;
    final int[] kids;

    ChildIndex(Cct tree, boolean[] excluded) {
        int n = tree.size();
        first = new int[n + 1];
        int count = 0;
        for (int c = 1; c < n; c++) {
            if (excluded == null || !excluded[c]) {
                first[tree.parent(c) + 1]++;
                count++;
            }
        }
        for (int p = 0; p < n; p++) {
            first[p + 1] += first[p];
        }
        kids = new int[count];
        int[] fill = Arrays.copyOf(first, n);
        for (int c = 1; c < n; c++) {
            if (excluded == null || !excluded[c]) {
                kids[fill[tree.parent(c)]++] = c;
            }
        }
        long[] keys = new long[0];
        for (int p = 0; p < n; p++) {
            int from = first[p];
            int len = first[p + 1] - from;
            if (len < 2) {
                continue;
            }
            if (keys.length < len) {
                keys = new long[Math.max(len, keys.length * 2)];
            }
            for (int i = 0; i < len; i++) {
                keys[i] = ((long) tree.callSiteLine(kids[from + i]) << 32) | i;
            }
            Arrays.sort(keys, 0, len);
            int[] sorted = new int[len];
            for (int i = 0; i < len; i++) {
                sorted[i] = kids[from + (int) (keys[i] & 0xffffffffL)];
            }
            // equal lines (rare): order those runs by method id, insertion sort
            for (int i = 1; i < len; i++) {
                int x = sorted[i];
                int j = i - 1;
                while (j >= 0 && tree.callSiteLine(sorted[j]) == tree.callSiteLine(x)
                        && tree.method(sorted[j]) > tree.method(x)) {
                    sorted[j + 1] = sorted[j];
                    j--;
                }
                sorted[j + 1] = x;
            }
            System.arraycopy(sorted, 0, kids, from, len);
        }
    }

    int count(int parent) {
        return first[parent + 1] - first[parent];
    }
}
