package io.cctflow.core.task;

import io.cctflow.core.collect.LongIntMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Interned sets of task ids: each distinct set is stored once as a sorted {@code int[]} and named
 * by a dense int, so a node's labels are one int and a union is one cached lookup. Set 0 is empty.
 * Not thread-safe.
 */
final class LabelSets {
    static final int EMPTY = 0;

    private final List<int[]> sets = new ArrayList<>();
    private final Map<Key, Integer> ids = new HashMap<>();
    private final LongIntMap unions = new LongIntMap(64);

    LabelSets() {
        intern(new int[0]);
    }

    int size() {
        return sets.size();
    }

    /** The sorted members; the caller must not modify the array. */
    int[] members(int set) {
        return sets.get(set);
    }

    boolean contains(int set, int task) {
        return Arrays.binarySearch(sets.get(set), task) >= 0;
    }

    int singleton(int task) {
        return intern(new int[] {task});
    }

    int union(int a, int b) {
        if (a == b || b == EMPTY) {
            return a;
        }
        if (a == EMPTY) {
            return b;
        }
        long key = ((long) Math.min(a, b) << 32) | Math.max(a, b);
        int cached = unions.get(key);
        if (cached >= 0) {
            return cached;
        }
        int result = intern(merge(sets.get(a), sets.get(b)));
        unions.put(key, result);
        return result;
    }

    private int intern(int[] sorted) {
        Key key = new Key(sorted);
        Integer id = ids.get(key);
        if (id != null) {
            return id;
        }
        int next = sets.size();
        sets.add(sorted);
        ids.put(key, next);
        return next;
    }

    private static int[] merge(int[] x, int[] y) {
        int[] out = new int[x.length + y.length];
        int i = 0;
        int j = 0;
        int n = 0;
        while (i < x.length || j < y.length) {
            int v;
            if (j == y.length || (i < x.length && x[i] < y[j])) {
                v = x[i++];
            } else if (i == x.length || y[j] < x[i]) {
                v = y[j++];
            } else {
                v = x[i++];
                j++;
            }
            out[n++] = v;
        }
        return Arrays.copyOf(out, n);
    }

    private record Key(int[] members) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(members, k.members);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(members);
        }

        @Override
        public String toString() {
            return Arrays.toString(members);
        }
    }
}
