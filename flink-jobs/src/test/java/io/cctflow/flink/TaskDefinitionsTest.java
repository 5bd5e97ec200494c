package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.ExecutionId;
import io.cctflow.core.MethodId;
import io.cctflow.core.NodeId;
import io.cctflow.core.task.MatchType;
import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.flink.task.TaskDefinitionChange;
import io.cctflow.model.NodeTasks;
import io.cctflow.schema.TaskDefinition;
import io.cctflow.schema.TaskMatchType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Task definitions on the merge operator's broadcast input ({@code forKeyedBroadcastProcessFunction}):
 * add, change, delete and invalid definitions, their effect on new and existing nodes, and that no
 * state is left behind: a deleted or rejected definition leaves no broadcast state, labels are never
 * kept per node, and nothing is left pending.
 */
class TaskDefinitionsTest {
    private static final ExecutionId EXEC = TestBatches.execution("i-1");
    private KeyedBroadcastOperatorTestHarness<String, RawRecord, RawRecord, BatchCounts> harness;
    private long offset;

    @BeforeEach
    void open() throws Exception {
        harness = MergeHarness.open();
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    @Test
    void addedDefinitionLabelsExistingNodesAndNewNodesInheritFromTheirParents() throws Exception {
        batch(EXEC, 0, new int[][] {{0, 1, 2}, {0, 3}});
        assertThat(drainLabels()).isEmpty(); // no definitions yet

        // only task roots are emitted: m1 > m2 inherits task-one from its parent when read
        define(TestTasks.regex("one", null, "^T\\.m1$", "task-one"));
        assertThat(drainLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(key("svc", 0, 1), List.of("task-one")));
        assertThat(drainChanges()).singleElement().satisfies(c -> {
            assertThat(c.id).isEqualTo("one");
            assertThat(c.definition.matchType()).isEqualTo(MatchType.REGEX);
            assertThat(c.definition.service()).isNull();
        });

        // a new node under m1 inherits its parent's task, under m3 none: neither is a root
        batch(EXEC, 1, new int[][] {{0, 1, 4}, {0, 3, 4}});
        assertThat(drainLabels()).isEmpty();

        // a second definition: a root of both lists them sorted by name; a named group fills the
        // template; m1 > m4 carries all three but is a root of a-m4 only
        define(TestTasks.regex("groups", null, "^T\\.(?<name>m[14])$", "a-${name}"));
        assertThat(drainLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                key("svc", 0, 1), List.of("a-m1", "task-one"),
                key("svc", 0, 1, 4), List.of("a-m4"),
                key("svc", 0, 3, 4), List.of("a-m4")));
        assertNoStateLeftBehind(2);
    }

    @Test
    void changedDefinitionMovesLabelsAndDeletedOneRemovesThemAndItsState() throws Exception {
        batch(EXEC, 0, new int[][] {{0, 1, 2}, {0, 3}});
        define(TestTasks.regex("t", null, "^T\\.m1$", "task"));
        drainLabels();
        drainChanges();

        define(TestTasks.regex("t", null, "^T\\.m3$", "task")); // same id, new content
        assertThat(drainLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                key("svc", 0, 1), List.of(),
                key("svc", 0, 3), List.of("task")));
        assertThat(drainChanges()).singleElement().satisfies(c -> assertThat(c.definition.pattern()).isEqualTo("^T\\.m3$"));

        // the same content again (a newer updatedMillis) changes no label
        TaskDefinition again = TestTasks.regex("t", null, "^T\\.m3$", "task");
        again.setUpdatedMillis(2_000L);
        define(again);
        assertThat(drainLabels()).isEmpty();
        assertThat(drainChanges()).singleElement().satisfies(c -> assertThat(c.definition.updatedMillis()).isEqualTo(2_000L));

        harness.processBroadcastElement(new StreamRecord<>(TestTasks.tombstone("t", offset++)));
        assertThat(drainLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(key("svc", 0, 3), List.of()));
        assertThat(drainChanges()).singleElement().satisfies(c -> {
            assertThat(c.id).isEqualTo("t");
            assertThat(c.definition).isNull();
        });
        assertNoStateLeftBehind(0);

        // deleting it again, or an id never defined, changes nothing
        harness.processBroadcastElement(new StreamRecord<>(TestTasks.tombstone("t", offset++)));
        harness.processBroadcastElement(new StreamRecord<>(TestTasks.tombstone("never", offset++)));
        assertThat(drainLabels()).isEmpty();
        assertThat(drainChanges()).isEmpty();
    }

    @Test
    void invalidDefinitionsAreDeadLetteredWithTheReasonAndReplaceTheirId() throws Exception {
        batch(EXEC, 0, new int[][] {{0, 1}});
        define(TestTasks.regex("t", null, "^T\\.m1$", "task"));
        assertThat(drainLabels()).hasSize(1);
        drainChanges();

        define(TestTasks.regex("t", null, "^T\\.(m1", "task")); // bad regex replaces the valid one
        define(TestTasks.regex("u", null, "^T\\.(?<m>m1)$", "x-${n}")); // template names an unknown group
        define(TestTasks.definition("v", null, TaskMatchType.PREFIX, "T.m", "p-${g}")); // a prefix has no groups
        define(TestTasks.regex("w", " ", "^T", "x")); // blank service
        RawRecord garbage = new RawRecord(TestTasks.TOPIC, 0, offset++, "g".getBytes(StandardCharsets.UTF_8),
                new byte[] {1, 2, 3});
        harness.processBroadcastElement(new StreamRecord<>(garbage));
        RawRecord wrongKey = TestTasks.record(TestTasks.regex("k", null, "^T", "x"), offset++);
        wrongKey.key = "other".getBytes(StandardCharsets.UTF_8);
        harness.processBroadcastElement(new StreamRecord<>(wrongKey));
        RawRecord noKey = TestTasks.record(TestTasks.regex("k", null, "^T", "x"), offset++);
        noKey.key = null;
        harness.processBroadcastElement(new StreamRecord<>(noKey));

        List<String> reasons = harness.getSideOutput(Outputs.DEAD_LETTERS).stream()
                .map(StreamRecord::getValue).map((DeadLetter d) -> d.reason).toList();
        assertThat(reasons).hasSize(7);
        assertThat(reasons.get(0)).contains("'t'").contains("invalid regular expression").contains("tasks/0@");
        assertThat(reasons.get(1)).contains("'u'").contains("no group named 'n'");
        assertThat(reasons.get(2)).contains("'v'").contains("PREFIX definition has no groups");
        assertThat(reasons.get(3)).contains("'w'").contains("service is empty");
        assertThat(reasons.get(4)).contains("not an Avro single-object TaskDefinition");
        assertThat(reasons.get(5)).contains("record key is 'other'");
        assertThat(reasons.get(6)).contains("without a key");
        // the valid "t" is gone: its labels removed, and deleted from the graph
        assertThat(drainLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(key("svc", 0, 1), List.of()));
        assertThat(drainChanges()).singleElement().satisfies(c -> {
            assertThat(c.id).isEqualTo("t");
            assertThat(c.definition).isNull();
        });
        assertNoStateLeftBehind(0);

        // the job goes on: batches are merged, a valid definition applies
        batch(EXEC, 1, new int[][] {{0, 1, 2}});
        define(TestTasks.regex("t", null, "^T\\.m2$", "task"));
        assertThat(drainLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(key("svc", 0, 1, 2), List.of("task")));
        assertThat(harness.extractOutputValues()).hasSize(2);
    }

    @Test
    void definitionsApplyOnlyToTheirServiceAndEachNodeIsEmittedOncePerService() throws Exception {
        ExecutionId a1 = new ExecutionId("a", "v1", "a-1");
        ExecutionId a2 = new ExecutionId("a", "v2", "a-2");
        ExecutionId b1 = new ExecutionId("b", "v1", "b-1");
        for (ExecutionId e : List.of(a1, a2, b1)) {
            batch(e, 0, new int[][] {{0, 1}});
        }
        define(TestTasks.regex("only-a", "a", "^T\\.m1$", "in-a"));
        List<NodeTasks> emitted = drainAll();
        // two executions of service a hold the node: one label update, and none for service b
        assertThat(emitted).singleElement().isEqualTo(new NodeTasks("a", path(0, 1)[1], List.of("in-a")));

        // m0 roots "root" in both services; a's m0 > m1 stays the root of in-a only
        define(TestTasks.regex("everywhere", null, "^T\\.m0$", "root"));
        assertThat(drainLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                key("a", 0), List.of("root"), key("b", 0), List.of("root")));

        // moving the service-limited definition to b relabels both services
        define(TestTasks.regex("only-a", "b", "^T\\.m1$", "in-a"));
        assertThat(drainLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                key("a", 0, 1), List.of(), key("b", 0, 1), List.of("in-a")));

        batch(b1, 1, new int[][] {{0, 1, 5}});
        assertThat(drainLabels()).as("m0 > m1 > m5 inherits both").isEmpty();
    }

    @Test
    void definitionsAndLabelsSurviveARestore() throws Exception {
        batch(EXEC, 0, new int[][] {{0, 1, 2}});
        define(TestTasks.regex("t", null, "^T\\.m1$", "task"));
        drainLabels();
        var snapshot = harness.snapshot(1, 1);
        harness.close();
        harness = MergeHarness.restore(snapshot);

        // the restored definition labels a new node (it inherits: no root); the method names for
        // a relabel come from state
        batch(EXEC, 1, new int[][] {{0, 1, 3}});
        assertThat(drainLabels()).isEmpty();
        // m1 is no longer a root, m1 > m2 becomes one, m1 > m3 stays unlabelled
        define(TestTasks.regex("t", null, "^T\\.m2$", "task"));
        assertThat(drainLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                key("svc", 0, 1), List.of(), key("svc", 0, 1, 2), List.of("task")));
        assertNoStateLeftBehind(1);
    }

    /**
     * Broadcast state holds only the live definitions; keyed state only nodes, the sequence and the
     * batches seen (method names are the subtask's, in operator state).
     */
    private void assertNoStateLeftBehind(int definitions) throws Exception {
        assertThat(harness.getBroadcastState(Outputs.TASK_DEFINITIONS).entries()).hasSize(definitions);
        int executions = (int) harness.extractOutputValues().stream().map(c -> c.executionKey).distinct().count();
        assertThat(MergeHarness.numKeyedStateEntries(harness)).isEqualTo(3 * executions);
        assertThat(harness.numProcessingTimeTimers()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    private void batch(ExecutionId execution, long sequence, int[][] stacks) throws Exception {
        long[] counts = new long[stacks.length];
        java.util.Arrays.fill(counts, 1);
        harness.processElement(new StreamRecord<>(TestBatches.record(
                TestBatches.batch(execution, sequence, 60_000 * (sequence + 1), stacks, counts), offset++)));
    }

    private void define(TaskDefinition definition) throws Exception {
        harness.processBroadcastElement(new StreamRecord<>(TestTasks.record(definition, offset++)));
    }

    private List<NodeTasks> drainAll() {
        List<NodeTasks> out = new ArrayList<>();
        Queue<StreamRecord<NodeTasks>> queue = harness.getSideOutput(Outputs.NODE_TASKS);
        while (queue != null && !queue.isEmpty()) {
            out.add(queue.poll().getValue());
        }
        return out;
    }

    /** Label updates since the last drain, as "service node-path" to tasks; each node at most once. */
    private Map<String, List<String>> drainLabels() {
        Map<String, List<String>> labels = new LinkedHashMap<>();
        for (NodeTasks t : drainAll()) {
            assertThat(labels.put(t.service() + " " + t.nodeId(), t.tasks())).as("second update of %s", t).isNull();
        }
        return labels;
    }

    private List<TaskDefinitionChange> drainChanges() {
        List<TaskDefinitionChange> out = new ArrayList<>();
        Queue<StreamRecord<TaskDefinitionChange>> queue = harness.getSideOutput(Outputs.TASK_DEFINITION_CHANGES);
        while (queue != null && !queue.isEmpty()) {
            out.add(queue.poll().getValue());
        }
        return out;
    }

    private static String key(String service, int... methods) {
        long[] ids = path(methods);
        return service + " " + ids[ids.length - 1];
    }

    /** Node ids along a path of methods {@code T.m<i>} as {@link TestBatches#batch} builds them. */
    static long[] path(int... methods) {
        long id = NodeId.ROOT;
        long[] ids = new long[methods.length];
        for (int i = 0; i < methods.length; i++) {
            id = NodeId.child(id, MethodId.of("T", "m" + methods[i], "()V"), i == 0 ? 0 : 1);
            ids[i] = id;
        }
        return ids;
    }
}
