package io.cctflow.core;

import java.util.function.Predicate;

/**
 * The samples of some threads only (seed 002 Eq. 3.17-3.19): a tree whose counts are those a tree
 * of only these threads' samples would have. Every node keeps the self counts of the selected
 * threads ({@code sample_thread[t]}, Eq. 3.17) and the sum of them over its subtree as its total
 * (Eq. 3.18-3.19); nodes left without samples are dropped. Node ids, methods, lines and recursive
 * parents are those of the input (ids are path hashes), so every metric computed on the result is
 * the thread-restricted metric of the input. Counts added to the input without a thread ({@link
 * Cct#addCounts} alone) belong to no thread and are dropped. Stateless.
 */
public final class ThreadFilter {
    private ThreadFilter() {
    }

    /**
     * The tree of the selected threads' samples. O(nodes + per-thread entries).
     *
     * @param selected tested once per thread name of the tree (normalised names, {@link Cct#threadName})
     */
    public static Cct of(Cct tree, Predicate<String> selected) {
        boolean[] keep = new boolean[tree.threads()];
        for (int t = 0; t < keep.length; t++) {
            keep[t] = selected.test(tree.threadName(t));
        }
        long[] self = new long[tree.size()];
        for (int e = 0; e < tree.threadEntries(); e++) {
            if (keep[tree.threadEntryThread(e)]) {
                self[tree.threadEntryNode(e)] += tree.threadEntrySelf(e);
            }
        }
        long[] total = self.clone();
        for (int n = tree.size() - 1; n > Cct.ROOT; n--) {
            total[tree.parent(n)] += total[n];
        }
        Cct out = new Cct(tree.size());
        int[] copy = new int[tree.size()]; // input index to output index; parents come first
        out.addCounts(Cct.ROOT, self[Cct.ROOT], total[Cct.ROOT]);
        for (int n = 1; n < tree.size(); n++) {
            if (total[n] > 0) {
                copy[n] = out.child(copy[tree.parent(n)], tree.method(n), tree.callSiteLine(n));
                out.addCounts(copy[n], self[n], total[n]);
            }
        }
        for (int e = 0; e < tree.threadEntries(); e++) {
            int t = tree.threadEntryThread(e);
            long count = tree.threadEntrySelf(e);
            if (keep[t] && count != 0) {
                out.addThreadSelf(copy[tree.threadEntryNode(e)], out.thread(tree.threadName(t)), count);
            }
        }
        return out;
    }
}
