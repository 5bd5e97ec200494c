package io.cctflow.core.internal;

import java.util.Arrays;

/**
 * The ascending order of {@code long} keys as positions, with one primitive sort and no boxing:
 * each key's high 40 bits are packed with its position in the low 24 and the packed values sorted
 * (from {@value #RADIX_FROM} keys on by an LSD radix sort of the 40 bits, four passes of 10 bits,
 * several times faster than a comparison sort on the random ids of CCT nodes); the rare runs whose
 * high bits are equal are then put in order of their full keys. What sorting a batch's node ids
 * needs when each id must keep its node. Stateless and thread-safe.
 */
public final class KeyOrder {
    private static final int POSITION_BITS = 24;
    private static final long POSITION_MASK = (1L << POSITION_BITS) - 1;
    static final int RADIX_FROM = 512;
    private static final int DIGIT_BITS = 10;

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
        if (n < RADIX_FROM) {
            for (int i = 0; i < n; i++) {
                packed[i] = (keys[i] & ~POSITION_MASK) | i;
            }
            Arrays.sort(packed);
        } else {
            // sign bit flipped: unsigned order of the packed values is then signed order of the keys
            for (int i = 0; i < n; i++) {
                packed[i] = ((keys[i] & ~POSITION_MASK) ^ Long.MIN_VALUE) | i;
            }
            sortHighBits(packed, n);
        }
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

    /**
     * Stable LSD radix sort of {@code a} by its bits above the position, unsigned; an even number of
     * passes, so the result ends in {@code a}. Equal high bits stay in position order.
     */
    private static void sortHighBits(long[] a, int n) {
        long[] from = a;
        long[] to = new long[n];
        int[] starts = new int[1 << DIGIT_BITS];
        int digitMask = (1 << DIGIT_BITS) - 1;
        for (int shift = POSITION_BITS; shift < Long.SIZE; shift += DIGIT_BITS) {
            Arrays.fill(starts, 0);
            for (int i = 0; i < n; i++) {
                starts[(int) (from[i] >>> shift) & digitMask]++;
            }
            int sum = 0;
            for (int d = 0; d < starts.length; d++) {
                int count = starts[d];
                starts[d] = sum;
                sum += count;
            }
            for (int i = 0; i < n; i++) {
                long v = from[i];
                to[starts[(int) (v >>> shift) & digitMask]++] = v;
            }
            long[] t = from;
            from = to;
            to = t;
        }
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
