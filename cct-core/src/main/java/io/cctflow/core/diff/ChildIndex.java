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
 * {@link #byMethod} orders siblings by method id, then call-site line, instead (method-path
 * matching groups siblings of one method).
 */
final class ChildIndex {
    final int[] first;
    final int[] kids;

    ChildIndex(Cct tree, boolean[] excluded) {
        this(tree, excluded, false);
    }

    /** Children of every node ordered by (method, line). */
    static ChildIndex byMethod(Cct tree) {
        return new ChildIndex(tree, null, true);
    }

    private ChildIndex(Cct tree, boolean[] excluded, boolean methodFirst) {
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
        if (methodFirst) {
            sortByMethod(tree);
            return;
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

    /** Sorts each sibling run by (method, line): insertion sort for short runs, a boxed sort beyond. */
    private void sortByMethod(Cct tree) {
        java.util.Comparator<Integer> order = (x, y) -> compareByMethod(tree, x, y);
        for (int p = 0; p + 1 < first.length; p++) {
            int from = first[p];
            int to = first[p + 1];
            if (to - from > 32) {
                Integer[] run = new Integer[to - from];
                for (int i = from; i < to; i++) {
                    run[i - from] = kids[i];
                }
                Arrays.sort(run, order);
                for (int i = from; i < to; i++) {
                    kids[i] = run[i - from];
                }
                continue;
            }
            for (int i = from + 1; i < to; i++) {
                int x = kids[i];
                int j = i - 1;
                while (j >= from && compareByMethod(tree, kids[j], x) > 0) {
                    kids[j + 1] = kids[j];
                    j--;
                }
                kids[j + 1] = x;
            }
        }
    }

    private static int compareByMethod(Cct tree, int x, int y) {
        int c = Long.compare(tree.method(x), tree.method(y));
        return c != 0 ? c : Integer.compare(tree.callSiteLine(x), tree.callSiteLine(y));
    }
}
