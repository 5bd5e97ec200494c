package io.cctflow.core;

import io.cctflow.core.internal.RunningColumnSum;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@link TreeCounts} summed as they arrive, one at a time: {@link #counts()} equals {@link
 * TreeCounts#sum} of everything {@link #add added}, in the order added (the first name of a thread
 * id wins). What it holds is bounded by the sum (its rows, at most as many again waiting to be
 * merged, {@link RunningColumnSum}), not by how many counts were added, so a stream of windows can
 * be summed without holding them. Not thread-safe.
 */
public final class RunningCounts {
    private final RunningColumnSum nodes = new RunningColumnSum(3, 1);
    private final RunningColumnSum threads = new RunningColumnSum(3, 2);
    private final RunningColumnSum methods = new RunningColumnSum(3, 1);
    private final Map<Long, String> dictionary = new TreeMap<>();
    private RawThreadNames rawThreadNames = RawThreadNames.empty();
    private int added;
    private TreeCounts only; // while one counts was added: the sum is that one

    /** Adds counts (which, immutable, may be kept until the sum is taken). */
    public void add(TreeCounts c) {
        if (c.isEmpty()) {
            return; // as TreeCounts.sum leaves them out, names and all
        }
        added++;
        only = added == 1 ? c : null;
        nodes.add(new long[][] {c.nodeIds(), c.self(), c.total()});
        threads.add(new long[][] {c.threadNodeIds(), c.threadIds(), c.threadSelf()});
        methods.add(new long[][] {c.methodIds(), c.methodSamples(), c.methodSelf()});
        long[] ids = c.threadDictIds();
        String[] names = c.threadDictNames();
        for (int i = 0; i < ids.length; i++) {
            dictionary.putIfAbsent(ids[i], names[i]);
        }
        rawThreadNames = rawThreadNames.plus(c.rawThreadNames());
    }

    /** The sum of what was added; nothing may be added after. */
    public TreeCounts counts() {
        long[][] n = nodes.table();
        long[][] t = threads.table();
        long[][] m = methods.table();
        if (added <= 1) {
            return added == 0 ? TreeCounts.empty() : only;
        }
        return TreeCounts.of(n[0], n[1], n[2], t[0], t[1], t[2],
                dictionary.keySet().stream().mapToLong(Long::longValue).toArray(),
                dictionary.values().toArray(String[]::new), m[0], m[1], m[2]).withRawThreadNames(rawThreadNames);
    }
}
