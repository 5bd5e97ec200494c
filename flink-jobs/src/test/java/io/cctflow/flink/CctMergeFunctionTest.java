package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.ExecutionId;
import io.cctflow.core.MethodId;
import io.cctflow.core.NodeId;
import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.cct.TopologyUpdate;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.flink.ingest.RunSequences;
import io.cctflow.flink.state.StoredNames;
import io.cctflow.flink.state.StoredNodes;
import io.cctflow.core.Cct;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.schema.AgentStats;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CctMergeFunctionTest {
    private static final ExecutionId EXEC = TestBatches.execution("i-1");
    private KeyedBroadcastOperatorTestHarness<String, RawRecord, RawRecord, BatchCounts> harness;

    @BeforeEach
    void open() throws Exception {
        harness = MergeHarness.open();
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
        // the rows the graph keeps: root (all samples) and each leaf's self count; totals and
        // per-method rows are the readers' to derive from these and the topology
        assertThat(first.counts.nodeIds).isSorted().hasSize(4); // root, main, main>work, main>work>work
        int root = indexOf(first.counts.nodeIds, NodeId.ROOT);
        assertThat(first.counts.total[root]).isEqualTo(6);
        long[] workPath = path(0, 1, 1);
        assertThat(new long[] {self(first, workPath[0]), self(first, workPath[1]), self(first, workPath[2])})
                .containsExactly(2, 3, 1);
        assertThat(first.counts.methodIds).isEmpty();
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

    /**
     * A job restored from a savepoint of before 2026-11-30: the execution's nodes in the first form
     * and its method names in keyed state. The tree is rebuilt from them (a truncated stack merges
     * under it, and only the new node goes to the graph), rewritten as one chunk of the current
     * form, and the old state is cleared; the names are the subtask's now (a definition matches).
     */
    @Test
    void aSavepointOfTheFirstFormIsReadRewrittenAndCleared() throws Exception {
        long[] ids = path(0, 1, 2, 3);
        List<NodeRecord> legacy = new ArrayList<>();
        List<Long> methodIds = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int d = ids.length - 1; d >= 0; d--) { // deepest first: the first form has no order
            long method = MethodId.of("T", "m" + d, "()V");
            legacy.add(new NodeRecord(ids[d], d == 0 ? NodeId.ROOT : ids[d - 1], method, d == 0 ? 0 : 1, d + 1,
                    NodeRecord.NO_RECURSIVE_PARENT));
            methodIds.add(method);
            names.add("T.m" + d);
        }
        var backend = harness.getOperator().getKeyedStateBackend();
        backend.setCurrentKey(EXEC.key());
        ListState<byte[]> legacyNodes = backend.getPartitionedState(VoidNamespace.INSTANCE,
                VoidNamespaceSerializer.INSTANCE, Outputs.LEGACY_CCT_NODE_CHUNKS);
        ListState<byte[]> legacyNames = backend.getPartitionedState(VoidNamespace.INSTANCE,
                VoidNamespaceSerializer.INSTANCE, Outputs.LEGACY_CCT_METHOD_NAME_CHUNKS);
        legacyNodes.add(StoredNodes.Legacy.encode(legacy.subList(0, 2)));
        legacyNodes.add(StoredNodes.Legacy.encode(legacy.subList(2, 4)));
        legacyNames.add(StoredNames.encode(methodIds, names));

        harness.processElement(new StreamRecord<>(TestBatches.record(TestBatches.truncate(
                TestBatches.batch(EXEC, 1, 120_000, new int[][] {{2, 3, 4}}, new long[] {3}), 0), 1)));
        BatchCounts out = harness.extractOutputValues().get(0);
        assertThat(out.truncatedMerged).isEqualTo(3);
        assertThat(harness.getSideOutput(Outputs.TOPOLOGY).peek().getValue().nodes).extracting(NodeRecord::id)
                .containsExactly(path(0, 1, 2, 3, 4)[4]);

        backend.setCurrentKey(EXEC.key());
        assertThat(legacyNodes.get()).isNullOrEmpty();
        assertThat(legacyNames.get()).isNullOrEmpty();
        ListState<byte[]> chunks = backend.getPartitionedState(VoidNamespace.INSTANCE,
                VoidNamespaceSerializer.INSTANCE, Outputs.CCT_TREE_CHUNKS);
        List<byte[]> stored = new ArrayList<>();
        chunks.get().forEach(stored::add);
        assertThat(stored).as("the whole tree, rewritten as one chunk").hasSize(1);
        Cct rebuilt = Cct.topologyOnly(8);
        StoredNodes.decodeInto(stored.get(0), rebuilt);
        long[] expected = path(0, 1, 2, 3, 4);
        assertThat(rebuilt.size()).isEqualTo(6);
        for (int n = 1; n < rebuilt.size(); n++) {
            assertThat(rebuilt.id(n)).isEqualTo(expected[n - 1]);
        }

        harness.processBroadcastElement(new StreamRecord<>(TestTasks.record(
                TestTasks.regex("t", null, "^T\\.m2$", "task"), 2)));
        assertThat(harness.getSideOutput(Outputs.NODE_TASKS)).extracting(r -> r.getValue().nodeId())
                .containsExactly(expected[2]);
    }

    @Test
    void runTimeGeneratedNamesFromAnyProducerAreNormalisedIntoOneMethod() throws Exception {
        // a producer that does not normalise: two lambdas of one call site, as JFR names them in two
        // JVMs (address and identity hash differ), and a JRuby call-site method with its counter
        SampleBatch batch = TestBatches.batch(EXEC, 0, 60_000, new int[][] {{0, 1}, {0, 2}, {0, 3}},
                new long[] {2, 3, 5});
        batch.getMethods().set(1, new MethodRef("a.Foo$$Lambda$12+0x0000000800c0b440.1234", "run", "()V"));
        batch.getMethods().set(2, new MethodRef("a.Foo$$Lambda$14+0x00007f1ff06f8000.5678", "run", "()V"));
        batch.getMethods().set(3, new MethodRef("Script", "invokeOther41:fib", "()V"));
        harness.processElement(new StreamRecord<>(TestBatches.record(batch, 0)));

        BatchCounts counts = harness.extractOutputValues().get(0);
        long lambda = MethodId.of("a.Foo$$Lambda$#", "run", "()V");
        long callSite = MethodId.of("Script", "invokeOther#:fib", "()V");
        TopologyUpdate update = harness.getSideOutput(Outputs.TOPOLOGY).peek().getValue();
        // both lambdas are one method, so one node: its self count is both stacks' samples
        assertThat(selfOfMethod(counts, update, lambda)).isEqualTo(5);
        assertThat(selfOfMethod(counts, update, callSite)).isEqualTo(5);
        assertThat(update.nodes).extracting(NodeRecord::methodId)
                .containsExactlyInAnyOrder(MethodId.of("T", "m0", "()V"), lambda, callSite);
        assertThat(update.methods).extracting(MethodRecord::className)
                .containsExactlyInAnyOrder("T", "a.Foo$$Lambda$#", "Script");
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

    /** A stats-only heartbeat, as the agent sends for a flush interval in which it sampled nothing. */
    private static SampleBatch heartbeat(long sequence, long windowStart) {
        SampleBatch batch = TestBatches.batch(EXEC, sequence, windowStart, new int[0][], new long[0]);
        batch.setMethods(new ArrayList<>());
        batch.setStats(AgentStats.newBuilder().setSamplesSeen(40).setSamplesTruncated(0).setSamplesDropped(0)
                .setBatchesSent(sequence).setBatchesDropped(0).setBytesSent(900 * sequence).setStackDepth(256).build());
        return batch;
    }

    /** The highest sequence number seen of the execution's latest run ({@code RunSequences}). */
    private long lastSequence() throws Exception {
        var backend = harness.getOperator().getKeyedStateBackend();
        backend.setCurrentKey(EXEC.key());
        return RunSequences.highest(backend.getPartitionedState(VoidNamespace.INSTANCE,
                VoidNamespaceSerializer.INSTANCE, Outputs.LAST_SEQUENCE).value());
    }

    @Test
    void aHeartbeatWithoutStacksOpensNoWindowWritesNoTopologyAndIsNoDeadLetter() throws Exception {
        harness.setProcessingTime(1_000);
        harness.processElement(new StreamRecord<>(TestBatches.record(heartbeat(0, 60_000), 0)));

        assertThat(harness.extractOutputValues()).as("window counts").isEmpty();
        assertThat(harness.getSideOutput(Outputs.TOPOLOGY)).as("topology, instance span").isNull();
        assertThat(harness.getSideOutput(Outputs.DEAD_LETTERS)).isNull();
        assertThat(harness.numProcessingTimeTimers()).isZero();
        // the last sequence and the batches seen only: no nodes, no pending stacks
        assertThat(MergeHarness.numKeyedStateEntries(harness)).isEqualTo(2);
        assertThat(lastSequence()).isZero();
    }

    @Test
    void aHeartbeatBetweenBatchesKeepsItsPlaceInTheSequenceAndChangesNoCount() throws Exception {
        int[][] stacks = {{0, 1}};
        long[] counts = {3};
        harness.processElement(new StreamRecord<>(TestBatches.record(TestBatches.batch(EXEC, 0, 60_000, stacks, counts), 0)));
        harness.processElement(new StreamRecord<>(TestBatches.record(heartbeat(1, 70_000), 1)));
        assertThat(lastSequence()).as("after the heartbeat").isEqualTo(1);
        harness.processElement(new StreamRecord<>(TestBatches.record(TestBatches.batch(EXEC, 2, 80_000, stacks, counts), 2)));

        assertThat(lastSequence()).isEqualTo(2);
        assertThat(harness.extractOutputValues()).extracting(b -> b.eventTimeMillis).containsExactly(60_000L, 80_000L);
        assertThat(harness.extractOutputValues()).allSatisfy(b -> assertThat(total(b, NodeId.ROOT)).isEqualTo(3));
        assertThat(harness.getSideOutput(Outputs.TOPOLOGY)).extracting(r -> r.getValue().instance.lastSampleMillis())
                .as("the instance's sample span ends with its batches' windows").containsExactly(70_000L, 90_000L);
        assertThat(harness.getSideOutput(Outputs.DEAD_LETTERS)).isNull();
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

    private static long[] path(int... methods) {
        long id = NodeId.ROOT;
        long[] ids = new long[methods.length];
        for (int i = 0; i < methods.length; i++) {
            id = NodeId.child(id, MethodId.of("T", "m" + methods[i], "()V"), i == 0 ? 0 : 1);
            ids[i] = id;
        }
        return ids;
    }

    private static long total(BatchCounts counts, long nodeId) {
        int i = java.util.Arrays.binarySearch(counts.counts.nodeIds, nodeId);
        return i < 0 ? 0 : counts.counts.total[i];
    }

    private static long self(BatchCounts counts, long nodeId) {
        int i = java.util.Arrays.binarySearch(counts.counts.nodeIds, nodeId);
        return i < 0 ? 0 : counts.counts.self[i];
    }

    /** Self samples of the nodes of {@code method} among those {@code update} created. */
    private static long selfOfMethod(BatchCounts counts, TopologyUpdate update, long method) {
        long sum = 0;
        for (NodeRecord n : update.nodes) {
            if (n.methodId() == method) {
                sum += self(counts, n.id());
            }
        }
        return sum;
    }

    @Test
    void truncatedStackWithAUniqueCandidateIsMergedAsTheFullPath() throws Exception {
        harness.setProcessingTime(1_000);
        // m0 > m1 > m2 > m3 complete; (m2 > m3 > m4) truncated: m2 has one node, m3 matches below it
        var batch = TestBatches.truncate(TestBatches.batch(EXEC, 0, 60_000, new int[][] {{0, 1, 2, 3}, {2, 3, 4}},
                new long[] {2, 5}), 1);
        harness.processElement(new StreamRecord<>(TestBatches.record(batch, 0)));

        BatchCounts out = harness.extractOutputValues().get(0);
        assertThat(out.truncatedMerged).isEqualTo(5);
        assertThat(out.truncatedPending + out.truncatedAmbiguous + out.truncatedExpired).isZero();
        long[] full = path(0, 1, 2, 3, 4);
        assertThat(self(out, full[4])).isEqualTo(5);
        assertThat(self(out, full[3])).isEqualTo(2);
        assertThat(total(out, NodeId.ROOT)).isEqualTo(7);
        NodeRecord[] created = harness.getSideOutput(Outputs.TOPOLOGY).peek().getValue().nodes;
        assertThat(created).extracting(NodeRecord::id).containsExactly(full[0], full[1], full[2], full[3], full[4]);
        assertThat(harness.numProcessingTimeTimers()).isZero();
    }

    @Test
    void pendingStackMergesWhenTheTreeGrowsAndCountsInItsOwnWindow() throws Exception {
        harness.setProcessingTime(1_000);
        var first = TestBatches.truncate(TestBatches.batch(EXEC, 0, 60_000, new int[][] {{0}, {5, 6}},
                new long[] {1, 4}), 1);
        harness.processElement(new StreamRecord<>(TestBatches.record(first, 0)));
        assertThat(harness.extractOutputValues().get(0).truncatedPending).isEqualTo(4);
        assertThat(harness.numProcessingTimeTimers()).isEqualTo(1);

        // the next window's batch brings m0 > m5 > m6: the pending (m5 > m6) now has one candidate
        harness.processElement(new StreamRecord<>(TestBatches.record(
                TestBatches.batch(EXEC, 1, 120_000, new int[][] {{0, 5, 6}}, new long[] {1}), 1)));
        List<BatchCounts> out = harness.extractOutputValues();
        assertThat(out).hasSize(3);
        BatchCounts moved = out.get(2);
        assertThat(moved.eventTimeMillis).isEqualTo(60_000);
        assertThat(new long[] {moved.truncatedPending, moved.truncatedMerged}).containsExactly(-4, 4);
        assertThat(total(moved, path(0, 5, 6)[2])).isEqualTo(4);
        assertThat(total(out.get(1), path(0, 5, 6)[2])).isEqualTo(1);
        // nothing pending any more: state and timer are gone
        assertThat(harness.numProcessingTimeTimers()).isZero();
        // the tree, the last sequence and the batches seen only (method names are operator state)
        assertThat(MergeHarness.numKeyedStateEntries(harness)).isEqualTo(3);
    }

    @Test
    void pendingStacksExpireByAgeAndByCount() throws Exception {
        harness.setProcessingTime(1_000);
        // four pending stacks for a bound of three: the oldest expires at once
        for (int i = 0; i < 4; i++) {
            harness.processElement(new StreamRecord<>(TestBatches.record(TestBatches.truncate(
                    TestBatches.batch(EXEC, i, 60_000L * (i + 1), new int[][] {{10 + i, 20 + i}}, new long[] {i + 1}), 0),
                    i)));
        }
        List<BatchCounts> out = harness.extractOutputValues();
        BatchCounts evicted = out.get(out.size() - 1);
        assertThat(evicted.eventTimeMillis).isEqualTo(60_000);
        assertThat(new long[] {evicted.truncatedPending, evicted.truncatedExpired}).containsExactly(-1, 1);
        assertThat(harness.numProcessingTimeTimers()).isEqualTo(1);

        harness.setProcessingTime(1_000 + 60_000); // the age bound: the other three expire
        out = harness.extractOutputValues();
        assertThat(out.subList(out.size() - 3, out.size())).extracting(b -> b.eventTimeMillis)
                .containsExactly(120_000L, 180_000L, 240_000L);
        assertThat(out.subList(out.size() - 3, out.size())).extracting(b -> b.truncatedExpired).containsExactly(2L, 3L, 4L);
        assertThat(harness.numProcessingTimeTimers()).isZero();
        // the last sequence and the batches seen only: no nodes, no pending
        assertThat(MergeHarness.numKeyedStateEntries(harness)).isEqualTo(2);
    }

    @Test
    void ambiguousStackIsCountedNeverMerged() throws Exception {
        var batch = TestBatches.truncate(TestBatches.batch(EXEC, 0, 60_000,
                new int[][] {{0, 2, 3}, {1, 2, 3}, {2, 3}}, new long[] {1, 1, 6}), 2);
        harness.processElement(new StreamRecord<>(TestBatches.record(batch, 0)));
        BatchCounts out = harness.extractOutputValues().get(0);
        assertThat(out.truncatedAmbiguous).isEqualTo(6);
        assertThat(total(out, NodeId.ROOT)).isEqualTo(2);
        assertThat(harness.numProcessingTimeTimers()).isZero();
    }

    @Test
    void treesAreRebuiltFromStateAfterARestore() throws Exception {
        harness.processElement(new StreamRecord<>(TestBatches.record(
                TestBatches.batch(EXEC, 0, 60_000, new int[][] {{0, 1, 2, 3}}, new long[] {1}), 0)));
        var snapshot = harness.snapshot(1, 1);
        harness.close();
        harness = MergeHarness.restore(snapshot);
        // only the restored state knows m2 > m3: the truncated stack merges under it
        harness.processElement(new StreamRecord<>(TestBatches.record(TestBatches.truncate(
                TestBatches.batch(EXEC, 1, 120_000, new int[][] {{2, 3, 4}}, new long[] {3}), 0), 1)));
        BatchCounts out = harness.extractOutputValues().get(0);
        assertThat(out.truncatedMerged).isEqualTo(3);
        assertThat(total(out, path(0, 1, 2, 3, 4)[4])).isEqualTo(3);
        assertThat(harness.getSideOutput(Outputs.TOPOLOGY).peek().getValue().nodes).extracting(NodeRecord::id)
                .containsExactly(path(0, 1, 2, 3, 4)[4]);
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
