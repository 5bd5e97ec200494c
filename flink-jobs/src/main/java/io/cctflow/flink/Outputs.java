package io.cctflow.flink;

import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.cct.TopologyUpdate;
import io.cctflow.flink.cct.TruncatedStack;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.graph.model.NodeRecord;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.util.OutputTag;

/** Side outputs and state descriptors of the jobs, in one place so their names stay stable. */
public final class Outputs {
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));
    public static final OutputTag<TopologyUpdate> TOPOLOGY =
            new OutputTag<>("topology", TypeInformation.of(TopologyUpdate.class));

    /** Batch counts that arrived after their window's allowed lateness. */
    public static final OutputTag<BatchCounts> LATE_BATCHES =
            new OutputTag<>("late-batches", TypeInformation.of(BatchCounts.class));

    /** Per execution: its CCT as node id -> topology. */
    public static final MapStateDescriptor<Long, NodeRecord> CCT_NODES =
            new MapStateDescriptor<>("cct-nodes", Types.LONG, TypeInformation.of(NodeRecord.class));
    /** Per execution: highest batch sequence number seen, to count lost batches. */
    public static final ValueStateDescriptor<Long> LAST_SEQUENCE =
            new ValueStateDescriptor<>("last-sequence", Types.LONG);

    /** Per execution: truncated stacks without a candidate yet, oldest first. */
    public static final ListStateDescriptor<TruncatedStack> PENDING_TRUNCATED =
            new ListStateDescriptor<>("pending-truncated", TypeInformation.of(TruncatedStack.class));
    /** Per execution: when the processing-time timer that expires pending stacks fires, if set. */
    public static final ValueStateDescriptor<Long> PENDING_TIMER =
            new ValueStateDescriptor<>("pending-truncated-timer", Types.LONG);

    private Outputs() {
    }
}
