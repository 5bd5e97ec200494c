package io.cctflow.flink.cct;

import io.cctflow.core.Cct;
import io.cctflow.core.NodeId;
import io.cctflow.core.StackCounts;
import io.cctflow.flink.ingest.DecodedBatch;
import io.cctflow.flink.ingest.MethodDictionary;
import io.cctflow.model.MethodRecord;
import io.cctflow.schema.SampleBatch;
import java.util.function.Consumer;

/** Turns a decoded batch into CCT merges: the one place that maps the wire format to the tree. */
public final class BatchTrees {
    private BatchTrees() {
    }

    /** Method ids of the batch's dictionary, in dictionary order. */
    public static long[] methodIds(DecodedBatch batch) {
        MethodRecord[] methods = batch.methods();
        long[] ids = new long[methods.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = methods[i].id();
        }
        return ids;
    }

    /** {@link #mergeComplete(DecodedBatch, Cct)} of a batch decoded by Avro's generated classes. */
    public static long mergeComplete(SampleBatch batch, Cct tree) {
        return mergeComplete(DecodedBatch.of(batch, new MethodDictionary(Integer.MAX_VALUE)), tree);
    }

    /**
     * Merges the batch's complete stacks into {@code tree} (seed 003: self to the leaf, totals along
     * the path), each with its thread, whose name the tree normalises again. Truncated stacks are
     * left out, because rooted where JFR cut them they would be false thread roots.
     *
     * @return samples of the truncated stacks left out
     */
    public static long mergeComplete(DecodedBatch batch, Cct tree) {
        long[] methodIds = methodIds(batch);
        Path path = new Path();
        return merge(batch, methodIds, s -> {
            path.of(batch, methodIds, s);
            tree.addStack(path.methods, path.lines, batch.depth(s), tree.thread(batch.thread(s)), batch.count(s));
        }, null);
    }

    /**
     * As {@link #mergeComplete}, but into the counts of an execution's tree (its topology grows,
     * the counts are the batch's), and hands each truncated stack, with its frames' names, to
     * {@code truncated} (when not null) for maximal common merging. The ids of all stacks' leaf
     * parents are computed first ({@link NodeId#leafParents}: four hash chains side by side), so a
     * stack the tree has costs one lookup ({@link Cct#existingLeaf}) and its frames are not copied;
     * only the others walk their path ({@link Cct#walk}).
     *
     * @param methodIds {@link #methodIds} of the same batch
     */
    public static long merge(DecodedBatch batch, long[] methodIds, StackCounts counts,
            Consumer<TruncatedStack> truncated) {
        Cct tree = counts.tree();
        long[] parents = new long[batch.stacks()];
        NodeId.leafParents(batch.frames(), batch.lines(), methodIds, batch.stackStarts(), batch.stacks(), parents);
        int[] frames = batch.frames();
        int[] lines = batch.lines();
        Path path = new Path();
        return merge(batch, methodIds, s -> {
            int depth = batch.depth(s);
            int last = batch.stackStart(s) + depth - 1;
            int leaf = depth == 0 ? Cct.ROOT : tree.existingLeaf(parents[s], methodIds[frames[last]], lines[last]);
            if (leaf == Cct.NONE) {
                path.of(batch, methodIds, s);
                leaf = tree.walk(path.methods, path.lines, depth);
            }
            counts.addPath(leaf, counts.thread(batch.thread(s)), batch.count(s));
        }, truncated);
    }

    /** Where {@link #merge} puts each complete stack: stack {@code s} of the batch. */
    @FunctionalInterface
    private interface StackSink {
        void add(int s);
    }

    /** A stack's method ids and lines, outermost first, in arrays reused from stack to stack. */
    private static final class Path {
        long[] methods = new long[64];
        int[] lines = new int[64];

        void of(DecodedBatch batch, long[] methodIds, int s) {
            int depth = batch.depth(s);
            int start = batch.stackStart(s);
            if (depth > methods.length) {
                methods = new long[depth];
                lines = new int[depth];
            }
            int[] frames = batch.frames();
            for (int i = 0; i < depth; i++) {
                methods[i] = methodIds[frames[start + i]];
            }
            System.arraycopy(batch.lines(), start, lines, 0, depth);
        }
    }

    private static long merge(DecodedBatch batch, long[] methodIds, StackSink sink, Consumer<TruncatedStack> truncated) {
        long truncatedSamples = 0;
        for (int s = 0; s < batch.stacks(); s++) {
            if (batch.truncated(s)) {
                truncatedSamples += batch.count(s);
                if (truncated != null && batch.depth(s) > 0) {
                    truncated.accept(truncatedStack(batch, methodIds, s));
                }
                continue;
            }
            sink.add(s);
        }
        return truncatedSamples;
    }

    private static TruncatedStack truncatedStack(DecodedBatch batch, long[] methodIds, int s) {
        int depth = batch.depth(s);
        int start = batch.stackStart(s);
        TruncatedStack t = new TruncatedStack();
        t.eventTimeMillis = batch.windowStartMillis();
        t.methods = new long[depth];
        t.lines = new int[depth];
        t.classNames = new String[depth];
        t.methodNames = new String[depth];
        t.descriptors = new String[depth];
        for (int i = 0; i < depth; i++) {
            int m = batch.frames()[start + i];
            MethodRecord ref = batch.methods()[m];
            t.methods[i] = methodIds[m];
            t.lines[i] = batch.lines()[start + i];
            t.classNames[i] = ref.className();
            t.methodNames[i] = ref.methodName();
            t.descriptors[i] = ref.descriptor();
        }
        t.thread = batch.thread(s);
        t.count = batch.count(s);
        return t;
    }
}
