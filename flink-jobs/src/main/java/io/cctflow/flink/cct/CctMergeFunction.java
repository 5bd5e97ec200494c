package io.cctflow.flink.cct;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.flink.Outputs;
import io.cctflow.flink.ingest.BatchDecoder;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.graph.model.InstanceRecord;
import io.cctflow.graph.model.MethodRecord;
import io.cctflow.graph.model.NodeRecord;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Merges the sample batches of one execution (the key) into that execution's CCT.
 *
 * <p>Keyed state holds the execution's tree as a map from node id to its topology; a node is
 * written to the graph only the first time the execution sees it. Each batch is merged into a
 * batch-local {@link Cct} first (seed 003: a sample is charged to its leaf, totals along the path),
 * so state is touched once per distinct node of the batch, not once per frame. Depth and recursive
 * parent come from the path in hand at node creation; no scan of the tree is ever needed.
 *
 * <p>Outputs: {@link BatchCounts} for windowing; {@link Outputs#TOPOLOGY} for the graph; undecodable
 * or inconsistent records to {@link Outputs#DEAD_LETTERS}, counted, while the job goes on.
 *
 * <p>Truncated stacks are not yet merged (maximal common merging comes with the full engine); they
 * are counted in {@code truncatedSamplesUnmerged} and left out of every count.
 */
public class CctMergeFunction extends KeyedProcessFunction<String, RawRecord, BatchCounts> {
    private static final long serialVersionUID = 1L;

    private transient MapState<Long, NodeRecord> nodes;
    private transient ValueState<Long> lastSequence;
    private transient Counter deadLettered;
    private transient Counter batchesMerged;
    private transient Counter samplesMerged;
    private transient Counter nodesCreated;
    private transient Counter truncatedSamplesUnmerged;
    private transient Counter sequenceGaps;
    private transient Counter hashCollisions;

    @Override
    public void open(OpenContext openContext) {
        nodes = getRuntimeContext().getMapState(Outputs.CCT_NODES);
        lastSequence = getRuntimeContext().getState(Outputs.LAST_SEQUENCE);
        var metrics = getRuntimeContext().getMetricGroup();
        deadLettered = metrics.counter("deadLettered");
        batchesMerged = metrics.counter("batchesMerged");
        samplesMerged = metrics.counter("samplesMerged");
        nodesCreated = metrics.counter("nodesCreated");
        truncatedSamplesUnmerged = metrics.counter("truncatedSamplesUnmerged");
        sequenceGaps = metrics.counter("sequenceGaps");
        hashCollisions = metrics.counter("hashCollisions");
    }

    @Override
    public void processElement(RawRecord record, Context ctx, Collector<BatchCounts> out) throws Exception {
        SampleBatch batch;
        try {
            batch = BatchDecoder.decode(record);
        } catch (BatchDecoder.InvalidRecordException e) {
            deadLetter(ctx, record, e.getMessage());
            return;
        }
        InstanceInfo info = batch.getInstance();
        ExecutionId execution = new ExecutionId(info.getService(), info.getVersion(), info.getInstanceId());
        if (!execution.key().equals(ctx.getCurrentKey())) {
            // state is per execution: a batch filed under another key would corrupt it
            deadLetter(ctx, record, "record key does not match the batch's execution " + execution);
            return;
        }
        checkSequence(batch.getSequence());

        long[] methodIds = BatchTrees.methodIds(batch);
        Cct tree = new Cct(Math.max(64, batch.getStacks().size() * 4));
        truncatedSamplesUnmerged.inc(BatchTrees.mergeComplete(batch, methodIds, tree));
        hashCollisions.inc(tree.collisions());
        batchesMerged.inc();
        samplesMerged.inc(tree.total(Cct.ROOT));

        ctx.output(Outputs.TOPOLOGY, topologyUpdate(batch, execution, tree, methodIds));
        out.collect(new BatchCounts(execution.key(), batch.getWindowStartMillis(), CountColumns.of(TreeCounts.of(tree)),
                new RawRecord(record.topic, record.partition, record.offset, record.key, null)));
    }

    private void deadLetter(Context ctx, RawRecord record, String reason) {
        deadLettered.inc();
        ctx.output(Outputs.DEAD_LETTERS, new DeadLetter(record, reason + " [" + record.origin() + "]"));
    }

    private void checkSequence(long sequence) throws Exception {
        Long last = lastSequence.value();
        if (last != null && sequence > last + 1) {
            sequenceGaps.inc(sequence - last - 1);
        }
        if (last == null || sequence > last) {
            lastSequence.update(sequence);
        }
    }

    private TopologyUpdate topologyUpdate(SampleBatch batch, ExecutionId execution, Cct tree, long[] methodIds)
            throws Exception {
        Map<Long, MethodRecord> byId = new LinkedHashMap<>();
        for (int i = 0; i < methodIds.length; i++) {
            MethodRef m = batch.getMethods().get(i);
            byId.putIfAbsent(methodIds[i], new MethodRecord(methodIds[i], m.getClassName(), m.getMethodName(),
                    m.getDescriptor()));
        }
        List<NodeRecord> created = new ArrayList<>();
        Map<Long, MethodRecord> usedMethods = new LinkedHashMap<>();
        for (int n = 1; n < tree.size(); n++) { // index order: parents before children
            long id = tree.id(n);
            if (nodes.contains(id)) {
                continue;
            }
            int rp = tree.recursiveParent(n);
            NodeRecord node = new NodeRecord(id, tree.id(tree.parent(n)), tree.method(n), tree.callSiteLine(n),
                    tree.depth(n), rp == Cct.NONE ? NodeRecord.NO_RECURSIVE_PARENT : tree.id(rp));
            nodes.put(id, node);
            created.add(node);
            usedMethods.putIfAbsent(node.methodId(), byId.get(node.methodId()));
        }
        nodesCreated.inc(created.size());
        InstanceInfo info = batch.getInstance();
        InstanceRecord instance = new InstanceRecord(execution.service(), execution.version(), execution.instance(),
                info.getHost(), info.getPid(), info.getStartTimeMillis(), info.getLabels(),
                batch.getWindowStartMillis(), batch.getWindowEndMillis());
        return new TopologyUpdate(instance, usedMethods.values().toArray(MethodRecord[]::new),
                created.toArray(NodeRecord[]::new));
    }

}
