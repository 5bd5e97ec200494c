package io.cctflow.bench.query;

import io.cctflow.core.Cct;
import io.cctflow.core.NodeId;
import io.cctflow.core.ThreadNames;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.SelfCounts;
import java.util.Arrays;
import java.util.Random;
import java.util.TreeMap;

/**
 * One window's samples drawn from the corpus, straight to the counts a window stores ({@link
 * SelfCounts#project}): each drawn stack charges its leaf node's self count and its (leaf, thread)
 * row, the root row holds every sample. The same counts as merging the drawn stacks into a fresh
 * {@link Cct} and projecting {@link TreeCounts#of(Cct)} ({@code WindowDrawsTest}), without building
 * the tree: a busy minute (6,000 samples over ~840 stacks) costs a sort of its leaves instead of a
 * merge of ~56,000 frames, which kept the busy dataset's build at ~40 windows/s.
 *
 * <p>Not thread-safe (scratch arrays); one per generating thread.
 */
final class WindowDraws {
    private final CorpusStacks stacks;
    /** Per stack: its leaf's node id and its thread's id and name. */
    private final long[] leaf;
    private final long[] threadId;
    private final String[] threadName;
    private final int[] counts;
    private final int[] touched;

    WindowDraws(CorpusStacks stacks) {
        this.stacks = stacks;
        int n = stacks.stackCount();
        leaf = new long[n];
        threadId = new long[n];
        threadName = new String[n];
        Cct template = new Cct();
        for (int s = 0; s < n; s++) {
            int node = stacks.add(template, s, 1);
            int t = template.thread(stacks.corpus().thread(s));
            leaf[s] = template.id(node);
            threadName[s] = template.threadName(t);
            threadId[s] = ThreadNames.id(threadName[s]);
        }
        counts = new int[n];
        touched = new int[n];
    }

    /** The projected counts of {@code samples} stacks drawn with {@code random}. */
    TreeCounts draw(Random random, int samples) {
        int distinct = 0;
        for (int i = 0; i < samples; i++) {
            int s = stacks.corpus().draw(random);
            if (counts[s]++ == 0) {
                touched[distinct++] = s;
            }
        }
        // (leaf, thread) rows sorted by node id then thread id; several stacks may share a row
        long[][] rows = new long[distinct][];
        for (int k = 0; k < distinct; k++) {
            int s = touched[k];
            rows[k] = new long[] {leaf[s], threadId[s], counts[s]};
            counts[s] = 0;
        }
        Arrays.sort(rows, (x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1]));
        TreeMap<Long, String> dictionary = new TreeMap<>();
        for (int k = 0; k < distinct; k++) {
            dictionary.putIfAbsent(threadId[touched[k]], threadName[touched[k]]);
        }
        int threadRows = 0;
        int nodeRows = 0;
        for (int k = 0; k < distinct; k++) {
            if (k == 0 || rows[k][0] != rows[k - 1][0] || rows[k][1] != rows[k - 1][1]) {
                threadRows++;
            }
            if (k == 0 || rows[k][0] != rows[k - 1][0]) {
                nodeRows++;
            }
        }
        long[] tNodes = new long[threadRows];
        long[] tThreads = new long[threadRows];
        long[] tSelf = new long[threadRows];
        long[] ids = new long[nodeRows + 1];
        long[] self = new long[nodeRows + 1];
        for (int k = 0, t = -1, r = -1; k < distinct; k++) {
            if (k == 0 || rows[k][0] != rows[k - 1][0] || rows[k][1] != rows[k - 1][1]) {
                t++;
                tNodes[t] = rows[k][0];
                tThreads[t] = rows[k][1];
            }
            tSelf[t] += rows[k][2];
            if (k == 0 || rows[k][0] != rows[k - 1][0]) {
                r++;
                ids[r] = rows[k][0];
            }
            self[r] += rows[k][2];
        }
        // the root's row (no stack ends at the root): self 0, total every sample
        ids[nodeRows] = NodeId.ROOT;
        long[] total = self.clone();
        total[nodeRows] = samples;
        long[] sortedIds = ids.clone();
        Arrays.sort(sortedIds);
        int rootAt = Arrays.binarySearch(sortedIds, NodeId.ROOT);
        long[] outIds = new long[ids.length];
        long[] outSelf = new long[ids.length];
        long[] outTotal = new long[ids.length];
        for (int k = 0, from = 0; k < ids.length; k++) {
            int src = k == rootAt ? nodeRows : from++;
            outIds[k] = ids[src];
            outSelf[k] = self[src];
            outTotal[k] = total[src];
        }
        return TreeCounts.of(outIds, outSelf, outTotal, tNodes, tThreads, tSelf,
                dictionary.keySet().stream().mapToLong(Long::longValue).toArray(),
                dictionary.values().toArray(String[]::new), new long[0], new long[0], new long[0]);
    }
}
