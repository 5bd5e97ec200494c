package io.cctflow.query.alerting;

import io.cctflow.core.TreeCounts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The K methods whose method time shifted most between two profiles, by absolute shift, ties by
 * method id (ascending), so the result is deterministic. A method sampled on one side only counts
 * with 0 samples on the other. O(M log K) for M methods on both sides together. Stateless.
 */
public final class ShiftRanking {
    /** Largest absolute shift first; equal shifts by ascending method id. */
    static final Comparator<MethodShift> ORDER = Comparator
            .comparingDouble((MethodShift s) -> Math.abs(s.shift())).reversed()
            .thenComparingLong(MethodShift::methodId);

    private ShiftRanking() {
    }

    /**
     * The top {@code k} shifts from {@code baseline} to {@code current}, per method id, using the
     * recursion-aware method samples the counts carry ({@link TreeCounts#methodSamples()}) and the
     * root totals as denominators.
     *
     * @return at most {@code k} shifts, ordered by {@link #ORDER}; empty when either side has no samples
     */
    public static List<MethodShift> top(TreeCounts current, TreeCounts baseline, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("k must be >= 1, got " + k);
        }
        long curTotal = current.samples();
        long baseTotal = baseline.samples();
        if (curTotal == 0 || baseTotal == 0) {
            return List.of();
        }
        // the heap's head is the weakest of the best k so far
        PriorityQueue<MethodShift> best = new PriorityQueue<>(k + 1, ORDER.reversed());
        long[] ci = current.methodIds();
        long[] cs = current.methodSamples();
        long[] bi = baseline.methodIds();
        long[] bs = baseline.methodSamples();
        int a = 0;
        int b = 0;
        while (a < ci.length || b < bi.length) { // merge of two id-sorted columns
            long id;
            long now = 0;
            long before = 0;
            if (b >= bi.length || (a < ci.length && ci[a] < bi[b])) {
                id = ci[a];
                now = cs[a++];
            } else if (a >= ci.length || bi[b] < ci[a]) {
                id = bi[b];
                before = bs[b++];
            } else {
                id = ci[a];
                now = cs[a++];
                before = bs[b++];
            }
            best.add(new MethodShift(id, now, before, shift(now, curTotal, before, baseTotal)));
            if (best.size() > k) {
                best.poll();
            }
        }
        List<MethodShift> out = new ArrayList<>(best);
        out.sort(ORDER);
        return out;
    }

    /** The one formula for a shift, shared with the tests' brute force. */
    static double shift(long currentSamples, long currentTotal, long baselineSamples, long baselineTotal) {
        return (double) currentSamples / currentTotal - (double) baselineSamples / baselineTotal;
    }
}
