package io.cctflow.flink.cct;

import io.cctflow.core.StackCounts;
import io.cctflow.core.truncated.MergeResult;
import io.cctflow.core.truncated.TruncatedStackMerger;
import io.cctflow.flink.ingest.DecodedBatch;
import java.util.ArrayList;
import java.util.List;

/**
 * The merge step of one batch into its execution's tree, without Flink: the batch's stacks go
 * into the tree (new nodes created there), their counts into the batch's {@link StackCounts}, and
 * each truncated stack is merged under its unique candidate path ({@link TruncatedStackMerger}),
 * kept pending when it has none, or counted ambiguous. {@link CctMergeFunction} calls it and does
 * the rest (state, metrics, side outputs).
 *
 * <p>Not thread-safe: the counts it returns are a scratch object reused by the next {@link #merge}.
 */
final class BatchMerge {
    private final TruncatedStackMerger merger;
    /** The counts of the batch in hand, reused from batch to batch (read out before the next). */
    private StackCounts scratch;

    BatchMerge(TruncatedStackMerger merger) {
        this.merger = merger;
    }

    /**
     * What merging one batch did.
     *
     * @param counts the batch's counts over the execution's tree (complete stacks and merged truncated ones)
     * @param pending truncated stacks without a candidate, stamped with the merge's time
     * @param sizeBefore the tree's size before the batch: nodes from this index on are new
     * @param collisions hash collisions the batch's new nodes met
     */
    record Result(StackCounts counts, List<TruncatedStack> pending, int sizeBefore, long collisions,
            long truncatedMerged, long truncatedPending, long truncatedAmbiguous) {
    }

    /** Merges {@code batch} into {@code instance}'s tree; {@code nowMillis} stamps the stacks left pending. */
    Result merge(DecodedBatch batch, InstanceTrees.Entry instance, long nowMillis) {
        long[] methodIds = BatchTrees.methodIds(batch);
        int sizeBefore = instance.tree().size();
        long collisionsBefore = instance.tree().collisions();
        // the batch's counts over the execution's tree: its new nodes go into that tree directly
        StackCounts counts = scratch == null ? (scratch = new StackCounts(instance.tree()))
                : scratch.reset(instance.tree());
        List<TruncatedStack> truncated = new ArrayList<>();
        BatchTrees.merge(batch, methodIds, counts, truncated::add);
        long batchId = batchId(batch);
        for (int i = 0; i < truncated.size(); i++) {
            truncated.get(i).id = ContributionIds.ofTruncatedStack(batchId, i);
        }
        long collisions = instance.tree().collisions() - collisionsBefore;
        long merged = 0;
        long pendingCount = 0;
        long ambiguous = 0;
        List<TruncatedStack> pending = new ArrayList<>();
        for (TruncatedStack stack : truncated) {
            MergeResult result = merger.tryMerge(instance.index(), stack.methods, stack.lines, stack.depth(),
                    stack.count);
            switch (result) {
                case MERGED -> {
                    addCompleted(counts, stack);
                    merged += stack.count;
                }
                case NO_CANDIDATE -> {
                    stack.pendingSinceMillis = nowMillis;
                    pending.add(stack);
                    pendingCount += stack.count;
                }
                case AMBIGUOUS -> ambiguous += stack.count;
            }
        }
        return new Result(counts, pending, sizeBefore, collisions, merged, pendingCount, ambiguous);
    }

    /** The contribution id of the batch's own counts ({@link ContributionIds#ofBatch}). */
    static long batchId(DecodedBatch batch) {
        return ContributionIds.ofBatch(batch.instance().getStartTimeMillis(), batch.instance().getPid(),
                batch.sequence());
    }

    /** Adds the stack the merger just completed ({@link TruncatedStackMerger#lastLeaf}) to {@code into}. */
    void addCompleted(StackCounts into, TruncatedStack stack) {
        into.addPath(merger.lastLeaf(), into.thread(stack.thread), stack.count);
    }
}
