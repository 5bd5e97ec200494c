package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.ExecutionId;
import io.cctflow.core.MethodId;
import io.cctflow.core.NodeId;
import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.cct.CctMergeFunction;
import io.cctflow.flink.cct.TopologyUpdate;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.graph.model.NodeRecord;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CctMergeFunctionTest {
    private static final ExecutionId EXEC = TestBatches.execution("i-1");
    private KeyedOneInputStreamOperatorTestHarness<String, RawRecord, BatchCounts> harness;

    @BeforeEach
    void open() throws Exception {
        harness = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                new CctMergeFunction(), SamplesJob::recordKey, Types.STRING);
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    @Test
    void mergesBatchAndEmitsEachNodeOnlyTheFirstTime() throws Exception {
        // main -> work (x3), main -> work -> work (recursion, x1), main (x2)
        int[][] stacks = {{0, 1}, {0, 1, 1}, {0}};
        long[] counts = {3, 1, 2};
        harness.processElement(new StreamRecord<>(TestBatches.record(TestBatches.batch(EXEC, 0, 60_000, stacks, counts), 0)));
        harness.processElement(new StreamRecord<>(TestBatches.record(TestBatches.batch(EXEC, 1, 70_000, stacks, counts), 1)));

        List<BatchCounts> out = harness.extractOutputValues();
        assertThat(out).hasSize(2);
        BatchCounts first = out.get(0);
        assertThat(first.eventTimeMillis).isEqualTo(60_000);
        assertThat(first.counts.nodeIds).isSorted().hasSize(4); // root, main, main>work, main>work>work
        int root = indexOf(first.counts.nodeIds, NodeId.ROOT);
        assertThat(first.counts.total[root]).isEqualTo(6);
        // method aggregates: work is in 4 samples (its recursion counted once), leaf of all 4
        long work = MethodId.of("T", "m1", "()V");
        int w = indexOf(first.counts.methodIds, work);
        assertThat(new long[] {first.counts.methodSamples[w], first.counts.methodSelf[w]}).containsExactly(4, 4);
        assertThat(first.counts.threadDictNames).isNotEmpty();
        assertThat(first.source.origin()).isEqualTo("samples/0@0");
        assertThat(first.source.value).isNull();

        List<StreamRecord<TopologyUpdate>> topology = List.copyOf(harness.getSideOutput(Outputs.TOPOLOGY));
        assertThat(topology).hasSize(2);
        NodeRecord[] created = topology.get(0).getValue().nodes;
        assertThat(created).hasSize(3);
        assertThat(created).extracting(NodeRecord::depth).containsExactly(1, 2, 3);
        // the inner work's recursive parent is the outer work
        assertThat(created[2].recursiveParentId()).isEqualTo(created[1].id());
        assertThat(created[1].recursiveParentId()).isEqualTo(NodeRecord.NO_RECURSIVE_PARENT);
        assertThat(created[1].methodId()).isEqualTo(MethodId.of("T", "m1", "()V"));
        assertThat(topology.get(1).getValue().nodes).isEmpty();
        assertThat(topology.get(1).getValue().instance.firstSampleMillis()).isEqualTo(70_000);
        assertThat(harness.getSideOutput(Outputs.DEAD_LETTERS)).isNull();
    }

    @Test
    void deadLettersGarbageAndMismatchedKeysAndGoesOn() throws Exception {
        RawRecord garbage = new RawRecord("samples", 0, 7, EXEC.key().getBytes(StandardCharsets.UTF_8),
                new byte[] {1, 2, 3, 4});
        RawRecord wrongKey = TestBatches.record(TestBatches.batch(EXEC, 0, 0, new int[][] {{0}}, new long[] {1}), 8);
        wrongKey.key = "someone-else".getBytes(StandardCharsets.UTF_8);
        harness.processElement(new StreamRecord<>(garbage));
        harness.processElement(new StreamRecord<>(wrongKey));
        harness.processElement(new StreamRecord<>(TestBatches.record(
                TestBatches.batch(EXEC, 0, 0, new int[][] {{0}}, new long[] {1}), 9)));

        List<DeadLetter> dead = harness.getSideOutput(Outputs.DEAD_LETTERS).stream().map(StreamRecord::getValue).toList();
        assertThat(dead).hasSize(2);
        assertThat(dead.get(0).reason).contains("not an Avro single-object SampleBatch").contains("samples/0@7");
        assertThat(dead.get(1).reason).contains("record key does not match");
        assertThat(harness.extractOutputValues()).hasSize(1);
    }

    @Test
    void rejectsStacksThatPointOutsideTheDictionary() throws Exception {
        var batch = TestBatches.batch(EXEC, 0, 0, new int[][] {{0, 1}}, new long[] {1});
        batch.getStacks().get(0).getFrames().set(1, 99);
        harness.processElement(new StreamRecord<>(TestBatches.record(batch, 0)));
        assertThat(harness.getSideOutput(Outputs.DEAD_LETTERS)).singleElement()
                .satisfies(r -> assertThat(r.getValue().reason).contains("refers to method 99"));
        assertThat(harness.extractOutputValues()).isEmpty();
    }

    private static int indexOf(long[] ids, long id) {
        for (int i = 0; i < ids.length; i++) {
            if (ids[i] == id) {
                return i;
            }
        }
        throw new AssertionError("no node " + id);
    }
}
