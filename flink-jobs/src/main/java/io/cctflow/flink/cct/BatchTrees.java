package io.cctflow.flink.cct;

import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import io.cctflow.core.StackCounts;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import java.util.List;
import java.util.function.Consumer;

/** Turns a decoded {@link SampleBatch} into CCT merges: the one place that maps the wire format to the tree. */
public final class BatchTrees {
    private BatchTrees() {
    }

    /** Method ids of the batch's dictionary, in dictionary order. */
    public static long[] methodIds(SampleBatch batch) {
        List<MethodRef> methods = batch.getMethods();
        long[] ids = new long[methods.size()];
        for (int i = 0; i < ids.length; i++) {
            MethodRef m = methods.get(i);
            ids[i] = MethodId.of(m.getClassName(), m.getMethodName(), m.getDescriptor());
        }
        return ids;
    }

    /**
     * Merges the batch's complete stacks into {@code tree} (seed 003: self to the leaf, totals along
     * the path), each with its thread, whose name the tree normalises again. Truncated stacks are
     * left out, because rooted where JFR cut them they would be false thread roots.
     *
     * @param methodIds {@link #methodIds(SampleBatch)} of the same batch
     * @return samples of the truncated stacks left out
     */
    public static long mergeComplete(SampleBatch batch, long[] methodIds, Cct tree) {
        return merge(batch, methodIds, (path, lines, depth, thread, count) ->
                tree.addStack(path, lines, depth, tree.thread(thread), count), null);
    }

    /**
     * As {@link #mergeComplete}, but into the counts of an execution's tree (its topology grows,
     * the counts are the batch's), and hands each truncated stack, with its frames' names, to
     * {@code truncated} (when not null) for maximal common merging.
     */
    public static long merge(SampleBatch batch, long[] methodIds, StackCounts counts,
            Consumer<TruncatedStack> truncated) {
        return merge(batch, methodIds, (path, lines, depth, thread, count) ->
                counts.addStack(path, lines, depth, counts.thread(thread), count), truncated);
    }

    /** Where {@link #merge} puts each complete stack. */
    @FunctionalInterface
    private interface StackSink {
        void add(long[] path, int[] lines, int depth, String thread, long count);
    }

    private static long merge(SampleBatch batch, long[] methodIds, StackSink sink, Consumer<TruncatedStack> truncated) {
        long truncatedSamples = 0;
        long[] path = new long[64];
        int[] lines = new int[64];
        for (Stack stack : batch.getStacks()) {
            int depth = stack.getFrames().size();
            if (stack.getTruncated()) {
                truncatedSamples += stack.getCount();
                if (truncated != null && depth > 0) {
                    truncated.accept(truncatedStack(batch, methodIds, stack));
                }
                continue;
            }
            if (depth > path.length) {
                path = new long[depth];
                lines = new int[depth];
            }
            for (int i = 0; i < depth; i++) {
                path[i] = methodIds[stack.getFrames().get(i)];
                lines[i] = stack.getLines().get(i);
            }
            sink.add(path, lines, depth, stack.getThread().toString(), stack.getCount());
        }
        return truncatedSamples;
    }

    private static TruncatedStack truncatedStack(SampleBatch batch, long[] methodIds, Stack stack) {
        int depth = stack.getFrames().size();
        TruncatedStack t = new TruncatedStack();
        t.eventTimeMillis = batch.getWindowStartMillis();
        t.methods = new long[depth];
        t.lines = new int[depth];
        t.classNames = new String[depth];
        t.methodNames = new String[depth];
        t.descriptors = new String[depth];
        for (int i = 0; i < depth; i++) {
            int m = stack.getFrames().get(i);
            MethodRef ref = batch.getMethods().get(m);
            t.methods[i] = methodIds[m];
            t.lines[i] = stack.getLines().get(i);
            t.classNames[i] = ref.getClassName().toString();
            t.methodNames[i] = ref.getMethodName().toString();
            t.descriptors[i] = ref.getDescriptor().toString();
        }
        t.thread = stack.getThread().toString();
        t.count = stack.getCount();
        return t;
    }
}
