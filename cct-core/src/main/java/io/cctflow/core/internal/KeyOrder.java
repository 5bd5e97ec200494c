package io.cctflow.core.internal;

import java.util.Arrays;

/**
 * The ascending order of {@code long} keys as positions, with one primitive sort and no boxing:
 * each key's high 40 bits are packed with its position in the low 24 and the packed values sorted;
 * the rare runs whose high bits are equal are then put in order of their full keys. What sorting
 * a batch's node ids needs when each id must keep its node. Stateless and thread-safe.
 */
public final class KeyOrder {
    private static final int POSITION_BITS = 24;
    private static final long POSITION_MASK = (1L << POSITION_BITS) - 1;

    private KeyOrder() {
    }

    /**
     * Positions {@code 0..n-1} of {@code keys} in ascending (signed) order of their keys, equal keys
     * by position.
     */
    public static int[] ascending(long[] keys, int n) {
        if (n > POSITION_MASK + 1) {
            return ascendingBoxed(keys, n);
        }
        long[] packed = new long[n];
        for (int i = 0; i < n; i++) {
            packed[i] = (keys[i] & ~POSITION_MASK) | i;
        }
        Arrays.sort(packed);
        int[] order = new int[n];
        int runStart = 0;
        for (int i = 0; i < n; i++) {
            order[i] = (int) (packed[i] & POSITION_MASK);
            if (i > 0 && (packed[i] & ~POSITION_MASK) != (packed[i - 1] & ~POSITION_MASK)) {
                sortRun(order, runStart, i, keys);
                runStart = i;
            }
        }
        sortRun(order, runStart, n, keys);
        return order;
    }

    /** Insertion sort of {@code order[from..to)} by full key, stable (the run is in position order). */
    private static void sortRun(int[] order, int from, int to, long[] keys) {
        for (int i = from + 1; i < to; i++) {
            int p = order[i];
            int j = i - 1;
            while (j >= from && keys[order[j]] > keys[p]) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = p;
        }
    }

    private static int[] ascendingBoxed(long[] keys, int n) {
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> Long.compare(keys[a], keys[b]));
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = boxed[i];
        }
        return order;
    }
}
