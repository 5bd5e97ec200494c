package io.cctflow.flink.cct;

import io.cctflow.core.TreeCounts;

/**
 * {@link TreeCounts} as a Flink POJO (public array fields, no-arg constructor), so batches and
 * window accumulators are serialised by Flink's own serializers, never by Kryo, and state can
 * evolve. Conversions share the arrays; neither side modifies them.
 */
public class CountColumns {
    public long[] nodeIds = new long[0];
    public long[] self = new long[0];
    public long[] total = new long[0];
    public long[] threadNodeIds = new long[0];
    public long[] threadIds = new long[0];
    public long[] threadSelf = new long[0];
    public long[] threadDictIds = new long[0];
    public String[] threadDictNames = new String[0];
    public long[] methodIds = new long[0];
    public long[] methodSamples = new long[0];
    public long[] methodSelf = new long[0];

    public CountColumns() {
    }

    public static CountColumns of(TreeCounts counts) {
        CountColumns c = new CountColumns();
        c.nodeIds = counts.nodeIds();
        c.self = counts.self();
        c.total = counts.total();
        c.threadNodeIds = counts.threadNodeIds();
        c.threadIds = counts.threadIds();
        c.threadSelf = counts.threadSelf();
        c.threadDictIds = counts.threadDictIds();
        c.threadDictNames = counts.threadDictNames();
        c.methodIds = counts.methodIds();
        c.methodSamples = counts.methodSamples();
        c.methodSelf = counts.methodSelf();
        return c;
    }

    /** @throws IllegalArgumentException if the columns are malformed (see {@link TreeCounts#of}) */
    public TreeCounts toTreeCounts() {
        return TreeCounts.of(nodeIds, self, total, threadNodeIds, threadIds, threadSelf, threadDictIds, threadDictNames,
                methodIds, methodSamples, methodSelf);
    }

    /** A new sum of both; neither is modified. */
    public CountColumns plus(CountColumns other) {
        return of(toTreeCounts().plus(other.toTreeCounts()));
    }
}
