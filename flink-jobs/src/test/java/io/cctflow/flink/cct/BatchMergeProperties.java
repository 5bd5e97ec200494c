package io.cctflow.flink.cct;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.StackCounts;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.truncated.TruncatedStackMerger;
import io.cctflow.flink.TestBatches;
import io.cctflow.flink.ingest.DecodedBatch;
import io.cctflow.flink.ingest.MethodDictionary;
import io.cctflow.graph.SelfCounts;
import io.cctflow.schema.SampleBatch;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link BatchMerge}, the operator's merge step without Flink, on random batches: the counts of
 * complete stacks equal those of the reference merge into a fresh tree of the batch alone
 * ({@link BatchTrees#mergeComplete}), however much of the execution's tree earlier batches built;
 * and every truncated sample ends up merged, pending (stamped with the merge's time) or ambiguous,
 * the merged ones in the batch's counts.
 */
class BatchMergeProperties {
    private static final ExecutionId EXEC = TestBatches.execution("i1");

    @Property(tries = 100)
    void completeStacksCountAsInAFreshTreeOfTheBatchAlone(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int batches) throws Exception {
        Random random = new Random(seed);
        InstanceTrees.Entry instance = new InstanceTrees(1).get(EXEC.key(), List::of, List::of);
        BatchMerge merge = new BatchMerge(new TruncatedStackMerger(1));
        for (int b = 0; b < batches; b++) {
            SampleBatch batch = TestBatches.random(EXEC, b, 60_000L * b, random, 1 + random.nextInt(30), 6);
            int sizeBefore = instance.tree().size();
            BatchMerge.Result r = merge.merge(decode(batch), instance, 1_000);
            Cct reference = new Cct();
            BatchTrees.mergeComplete(decode(batch), reference);

            assertThat(TreeCounts.of(r.counts())).isEqualTo(TreeCounts.of(reference));
            assertThat(r.sizeBefore()).isEqualTo(sizeBefore);
            assertThat(r.pending()).isEmpty();
            assertThat(new long[] {r.truncatedMerged(), r.truncatedPending(), r.truncatedAmbiguous()})
                    .containsOnly(0L);
        }
    }

    @Property(tries = 100)
    void everyTruncatedSampleIsMergedPendingOrAmbiguous(@ForAll long seed) throws Exception {
        Random random = new Random(seed);
        InstanceTrees.Entry instance = new InstanceTrees(1).get(EXEC.key(), List::of, List::of);
        BatchMerge merge = new BatchMerge(new TruncatedStackMerger(1));
        merge.merge(decode(TestBatches.random(EXEC, 0, 0, random, 20, 5)), instance, 0); // a tree to merge under
        SampleBatch batch = TestBatches.random(EXEC, 1, 60_000, random, 1 + random.nextInt(20), 5);
        long truncated = 0;
        for (int s = 0; s < batch.getStacks().size(); s++) {
            if (random.nextBoolean()) {
                TestBatches.truncate(batch, s);
                truncated += batch.getStacks().get(s).getCount();
            }
        }
        Cct complete = new Cct();
        BatchTrees.mergeComplete(decode(batch), complete);

        BatchMerge.Result r = merge.merge(decode(batch), instance, 7_000);

        assertThat(r.truncatedMerged() + r.truncatedPending() + r.truncatedAmbiguous()).isEqualTo(truncated);
        assertThat(r.counts().samples()).isEqualTo(TreeCounts.of(complete).samples() + r.truncatedMerged());
        assertThat(r.pending()).allSatisfy(p -> assertThat(p.pendingSinceMillis).isEqualTo(7_000));
        assertThat(r.pending().stream().mapToLong(p -> p.count).sum()).isEqualTo(r.truncatedPending());
    }

    /**
     * The counts the operator emits ({@link TreeCounts#selfRowsOf}) are what the graph stores of
     * them: graph-store's projection of the batch's whole counts, over a tree earlier batches grew,
     * with truncated stacks merged into them too.
     */
    @Property(tries = 200)
    void selfRowsAreTheStoredProjectionOfTheBatchsCounts(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int batches) throws Exception {
        Random random = new Random(seed);
        InstanceTrees.Entry instance = new InstanceTrees(1).get(EXEC.key(), List::of, List::of);
        BatchMerge merge = new BatchMerge(new TruncatedStackMerger(1));
        assertThat(TreeCounts.selfRowsOf(new StackCounts(instance.tree())))
                .isEqualTo(SelfCounts.project(TreeCounts.of(new StackCounts(instance.tree()))));
        for (int b = 0; b < batches; b++) {
            SampleBatch batch = TestBatches.random(EXEC, b, 60_000L * b, random, 1 + random.nextInt(30), 6);
            for (int s = 0; s < batch.getStacks().size(); s++) {
                if (random.nextInt(4) == 0) {
                    TestBatches.truncate(batch, s);
                }
            }
            BatchMerge.Result r = merge.merge(decode(batch), instance, 1_000);

            TreeCounts selfRows = TreeCounts.selfRowsOf(r.counts());
            assertThat(selfRows).isEqualTo(SelfCounts.project(TreeCounts.of(r.counts())));
            assertThat(SelfCounts.isProjected(selfRows)).isTrue();
        }
    }

    private static DecodedBatch decode(SampleBatch batch) {
        return DecodedBatch.of(batch, new MethodDictionary(Integer.MAX_VALUE));
    }
}
