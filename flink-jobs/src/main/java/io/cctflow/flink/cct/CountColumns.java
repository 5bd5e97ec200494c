package io.cctflow.flink.cct;

import io.cctflow.flink.state.CountColumnsSerializer;
import io.cctflow.flink.state.CountColumnsTypeInfo;
import io.cctflow.core.RawThreadNames;
import io.cctflow.core.TreeCounts;
import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * {@link TreeCounts} as columns (public array fields, no-arg constructor) that Flink serializes
 * with {@link CountColumnsSerializer} (in bulk, never by Kryo), in batches and window accumulators.
 * Conversions share the arrays; neither side modifies them, and nobody modifies a {@code
 * CountColumns} after building it: the serializer's {@code copy} returns the same object.
 */
@TypeInfo(CountColumnsTypeInfo.Factory.class)
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
    /** {@link TreeCounts#rawThreadNames()}: raw thread names, bounded per pool. */
    public String[] rawThreadNames = new String[0];
    /** These columns as counts, once built or checked: a window's running sum is not checked again at every batch. */
    private transient TreeCounts counts;

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
        c.rawThreadNames = counts.rawThreadNames().names();
        c.counts = counts;
        return c;
    }

    /** @throws IllegalArgumentException if the columns are malformed (see {@link TreeCounts#of}) */
    public TreeCounts toTreeCounts() {
        if (counts == null) {
            counts = TreeCounts.of(nodeIds, self, total, threadNodeIds, threadIds, threadSelf, threadDictIds,
                    threadDictNames, methodIds, methodSamples, methodSelf)
                    .withRawThreadNames(RawThreadNames.of(rawThreadNames == null ? new String[0] : rawThreadNames));
        }
        return counts;
    }

    /** A new sum of both; neither is modified. */
    public CountColumns plus(CountColumns other) {
        return of(toTreeCounts().plus(other.toTreeCounts()));
    }
}
