package io.cctflow.flink;

import io.cctflow.flink.cct.TopologyUpdate;
import io.cctflow.flink.cct.TruncatedStack;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.task.TaskDefinitionChange;
import io.cctflow.model.NodeTasks;
import io.cctflow.flink.state.TaskDefinitionState;
import io.cctflow.flink.state.TaskDefinitionStateSerializer;
import java.time.Duration;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.util.OutputTag;

/** Side outputs and state descriptors of the jobs, in one place so their names stay stable. */
public final class Outputs {
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));
    public static final OutputTag<TopologyUpdate> TOPOLOGY =
            new OutputTag<>("topology", TypeInformation.of(TopologyUpdate.class));

    /** Task labels of a (service, node), new or changed: the full list, empty when it lost all. */
    public static final OutputTag<NodeTasks> NODE_TASKS =
            new OutputTag<>("node-tasks", TypeInformation.of(NodeTasks.class));
    /** Accepted task definitions to store, and ids of deleted (or rejected) ones to remove. */
    public static final OutputTag<TaskDefinitionChange> TASK_DEFINITION_CHANGES =
            new OutputTag<>("task-definition-changes", TypeInformation.of(TaskDefinitionChange.class));

    /**
     * Per execution: its CCT's nodes in the order the tree created them ({@code StoredNodes}: parent
     * as a distance back, method, line) in chunks, one per batch that created nodes, compacted into
     * one when there are many. Bytes in few elements, because every checkpoint of the heap state
     * backend writes every execution's state.
     */
    public static final ListStateDescriptor<byte[]> CCT_TREE_CHUNKS = new ListStateDescriptor<>("cct-tree-chunks",
            PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    /**
     * Per execution, in a job restored from a savepoint of before 2026-11-30: its CCT's nodes in
     * the first form ({@code StoredNodes.Legacy}: id, parent, method, line, depth). Read once, when
     * the execution's tree is rebuilt, then rewritten into {@link #CCT_TREE_CHUNKS} and cleared.
     */
    public static final ListStateDescriptor<byte[]> LEGACY_CCT_NODE_CHUNKS = new ListStateDescriptor<>(
            "cct-node-chunks", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    /**
     * Per subtask (operator state, a union list, so after a restore or a rescale every subtask has
     * all of them): {@code className.methodName} of each method of the subtask's trees, for task
     * matching, as chunks of UTF-8 names ({@code StoredNames}). Executions of a service share their
     * methods: kept per execution, the names were a third of the job's state at 1,000 instances.
     */
    public static final ListStateDescriptor<byte[]> METHOD_NAME_CHUNKS = new ListStateDescriptor<>(
            "method-name-chunks", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    /**
     * Per execution, in a job restored from a savepoint of before 2026-11-30: the names of its
     * methods ({@code StoredNames}). Read when its tree is labelled or rewritten, then cleared.
     */
    public static final ListStateDescriptor<byte[]> LEGACY_CCT_METHOD_NAME_CHUNKS = new ListStateDescriptor<>(
            "cct-method-name-chunks", PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    /**
     * Per execution: its latest run and the highest batch sequence number seen of it
     * ({@code RunSequences}). Named anew when it stopped being a plain number ({@code last-sequence}):
     * a savepoint's old state is left unread, and gap counting starts afresh, instead of failing the restore.
     */
    public static final ValueStateDescriptor<long[]> LAST_SEQUENCE = new ValueStateDescriptor<>("run-sequence",
            PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO);

    /**
     * Per execution: the batches seen of its latest runs ({@code SeenBatches}), so a batch that
     * arrives twice is counted once. Expires a week after the execution's last batch: a copy that
     * late is still counted once by the graph's window writes, which know each window's batches.
     */
    public static final ValueStateDescriptor<long[]> SEEN_BATCHES = seenBatches();

    private static ValueStateDescriptor<long[]> seenBatches() {
        ValueStateDescriptor<long[]> d = new ValueStateDescriptor<>("seen-batches",
                PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO);
        d.enableTimeToLive(StateTtlConfig.newBuilder(Duration.ofDays(7)).build());
        return d;
    }

    /** Per execution: truncated stacks without a candidate yet, oldest first. */
    public static final ListStateDescriptor<TruncatedStack> PENDING_TRUNCATED =
            new ListStateDescriptor<>("pending-truncated", TypeInformation.of(TruncatedStack.class));
    /** Per execution: when the processing-time timer that expires pending stacks fires, if set. */
    public static final ValueStateDescriptor<Long> PENDING_TIMER =
            new ValueStateDescriptor<>("pending-truncated-timer", Types.LONG);

    /**
     * Broadcast: the accepted task definitions by id, in the job's own state type
     * ({@link TaskDefinitionStateSerializer}; state version 7).
     */
    public static final MapStateDescriptor<String, TaskDefinitionState> TASK_DEFINITIONS =
            new MapStateDescriptor<>("task-definitions", StringSerializer.INSTANCE,
                    TaskDefinitionStateSerializer.INSTANCE);

    private Outputs() {
    }
}
