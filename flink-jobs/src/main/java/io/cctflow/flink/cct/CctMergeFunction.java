package io.cctflow.flink.cct;

import io.cctflow.flink.state.StoredNodes;
import io.cctflow.flink.task.TaskLabelling;
import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.StackCounts;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.collect.LongIntMap;
import io.cctflow.core.truncated.MergeResult;
import io.cctflow.core.truncated.TruncatedStackMerger;
import io.cctflow.flink.Outputs;
import io.cctflow.flink.ingest.BatchDecoder;
import io.cctflow.flink.ingest.DecodedBatch;
import io.cctflow.flink.ingest.MethodDictionary;
import io.cctflow.flink.ingest.SampleBatchReader;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.flink.ingest.RunSequences;
import io.cctflow.flink.ingest.SeenBatches;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.schema.InstanceInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Merges the sample batches of one execution (the key) into that execution's CCT.
 *
 * <p>Keyed state holds the execution's tree as chunks of nodes ({@link StoredNodes}: topology only,
 * ids derived), a chunk per batch that created nodes; a node is written to the graph only the first time the execution sees it. Each batch is merged into the
 * execution's in-memory tree with its counts kept apart ({@link StackCounts}; seed 003: a sample is
 * charged to its leaf, totals along the path), so the batch's counts are computed once per distinct
 * node, and a node already in the tree costs one hash lookup per frame. Depth and recursive parent come from
 * the path in hand at node creation; no scan of the tree is ever needed.
 *
 * <p><b>Truncated stacks</b> (seed 002 Listing 3.2) are merged by maximal common merging against
 * the execution's whole tree, held in memory as derived data ({@link InstanceTrees}: rebuilt from
 * state on a miss). A stack with no candidate yet is kept in keyed state and retried whenever the
 * tree grows, within a bound on their number and age; expired ones are counted. A stack merged later
 * counts in the window of the batch it came in. Outcomes are job metrics and go with the window's
 * counts ({@code truncated*} fields of {@link BatchCounts}).
 *
 * <p><b>Task labels</b> (seed 002 Sect. 3.3.3): task definitions arrive on the broadcast input (the
 * compacted task definitions topic, records undecoded) and are kept in broadcast state {@link
 * Outputs#TASK_DEFINITIONS}; cct-core's {@code TaskLabeller}, one per service, does all matching. A
 * new node gets its labels from its parent's (its own method's matches added: O(1) per new node
 * after its method's first match), computed on the in-memory tree ({@link TaskLabelling}). An added, changed or deleted
 * definition is applied to the existing nodes of every execution of the services it applies to
 * ({@code applyToKeyedState}): their labels before and after are compared, and each (service, node)
 * whose task roots changed is emitted once. Only task roots (the tasks a node carries and its
 * parent does not) are emitted, new nodes' too: the graph stores roots, readers take the subtrees
 * below them. Labels are a pure function of path, service and
 * definitions, so they are not kept in state; the method names they need are, once per subtask
 * ({@link Outputs#METHOD_NAME_CHUNKS}, operator state). An invalid definition is dead-lettered with the reason and counted,
 * and removes an earlier definition with its id: the accepted definitions are always the valid
 * subset of the topic's latest values, whatever the restart.
 *
 * <p><b>Batches without stacks</b> (the agent's stats-only heartbeats of a flush interval that
 * sampled nothing) are valid: their sequence number is tracked like any batch's (a lost one is a
 * gap), they are counted ({@code emptyBatches}), and nothing else happens: no window counts (a
 * window of an idle instance would hold zeros), no topology update (the instance's sample span in
 * the graph stays that of its samples), no dead letter.
 *
 * <p>Outputs: {@link BatchCounts} for windowing; {@link Outputs#TOPOLOGY} for the graph; {@link
 * Outputs#NODE_TASKS} (task roots per service and node) and {@link Outputs#TASK_DEFINITION_CHANGES} for
 * the graph; undecodable or inconsistent records, and rejected task definitions, to {@link
 * Outputs#DEAD_LETTERS}, counted, while the job goes on. Definition changes and rejections are the
 * same on every subtask, so only the first subtask emits them.
 */
public class CctMergeFunction extends KeyedBroadcastProcessFunction<String, RawRecord, RawRecord, BatchCounts>
        implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    /**
     * Dictionary entries remembered per subtask ({@link MethodDictionary}): the entry's bytes plus its
     * record, some 400 bytes for typical names, so at most ~40 MB; a real application names a few
     * thousand to a few tens of thousands of methods. Past it the dictionary starts over (costing
     * only the recomputation).
     */
    private static final int METHOD_DICTIONARY_ENTRIES = 100_000;

    private final int matchThreshold;
    private final int maxPending;
    private final long maxPendingAgeMillis;
    private final int treeCacheSize;

    private transient ListState<byte[]> treeChunks;
    private transient ListState<byte[]> legacyNodes;
    /** Operator state: the subtask's method names ({@link Outputs#METHOD_NAME_CHUNKS}). */
    private transient ListState<byte[]> methodNames;
    private transient ValueState<long[]> lastSequence;
    private transient ValueState<long[]> seenBatches;
    private transient ListState<TruncatedStack> pending;
    private transient ValueState<Long> pendingTimer;
    private transient TaskLabelling tasks;
    private transient InstanceTrees trees;
    private transient TruncatedStackMerger merger;
    private transient SampleBatchReader reader;
    private transient BatchMerge batchMerge;
    /** Scratch, reused from batch to batch: the batch's methods by id; the methods of its new nodes. */
    private transient MethodsById batchMethods;
    private transient LongIntMap usedMethodIds;
    private transient Counter deadLettered;
    private transient Counter batchesMerged;
    private transient Counter emptyBatches;
    private transient Counter samplesMerged;
    private transient Counter nodesCreated;
    private transient Counter truncatedMerged;
    private transient Counter truncatedPending;
    private transient Counter truncatedAmbiguous;
    private transient Counter truncatedExpired;
    private transient Counter sequenceGaps;
    private transient Counter duplicateBatches;
    private transient Counter uncheckedBatches;
    private transient Counter hashCollisions;

    /**
     * @param matchThreshold see {@link TruncatedStackMerger#TruncatedStackMerger(int)}
     * @param maxPending truncated stacks kept per execution for retry; the oldest beyond it expire
     * @param maxPendingAge a pending stack expires this long (processing time) after it arrived
     * @param treeCacheSize execution trees kept in memory per subtask
     */
    public CctMergeFunction(int matchThreshold, int maxPending, Duration maxPendingAge, int treeCacheSize) {
        if (matchThreshold < 0 || maxPending < 1 || maxPendingAge.toMillis() < 1 || treeCacheSize < 1) {
            throw new IllegalArgumentException("matchThreshold >= 0, maxPending >= 1, maxPendingAge >= 1 ms and"
                    + " treeCacheSize >= 1 required");
        }
        this.matchThreshold = matchThreshold;
        this.maxPending = maxPending;
        this.maxPendingAgeMillis = maxPendingAge.toMillis();
        this.treeCacheSize = treeCacheSize;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        treeChunks = getRuntimeContext().getListState(Outputs.CCT_TREE_CHUNKS);
        legacyNodes = getRuntimeContext().getListState(Outputs.LEGACY_CCT_NODE_CHUNKS);
        lastSequence = getRuntimeContext().getState(Outputs.LAST_SEQUENCE);
        seenBatches = getRuntimeContext().getState(Outputs.SEEN_BATCHES);
        pending = getRuntimeContext().getListState(Outputs.PENDING_TRUNCATED);
        pendingTimer = getRuntimeContext().getState(Outputs.PENDING_TIMER);
        trees = new InstanceTrees(treeCacheSize);
        merger = new TruncatedStackMerger(matchThreshold);
        batchMerge = new BatchMerge(merger);
        batchMethods = new MethodsById();
        usedMethodIds = new LongIntMap(256);
        reader = new SampleBatchReader(new MethodDictionary(METHOD_DICTIONARY_ENTRIES));
        var metrics = getRuntimeContext().getMetricGroup();
        deadLettered = metrics.counter("deadLettered");
        batchesMerged = metrics.counter("batchesMerged");
        emptyBatches = metrics.counter("emptyBatches");
        samplesMerged = metrics.counter("samplesMerged");
        nodesCreated = metrics.counter("nodesCreated");
        truncatedMerged = metrics.counter("truncatedSamplesMerged");
        truncatedPending = metrics.counter("truncatedSamplesPending");
        truncatedAmbiguous = metrics.counter("truncatedSamplesAmbiguous");
        truncatedExpired = metrics.counter("truncatedSamplesExpired");
        sequenceGaps = metrics.counter("sequenceGaps");
        duplicateBatches = metrics.counter("duplicateBatches");
        uncheckedBatches = metrics.counter("batchesNotCheckedForDuplicates");
        hashCollisions = metrics.counter("hashCollisions");
        tasks = new TaskLabelling(getRuntimeContext().getListState(Outputs.LEGACY_CCT_METHOD_NAME_CHUNKS), metrics,
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0);
        tasks.restoreNames(methodNames.get());
    }

    /** Called before {@link #open}: the operator state of the subtask's method names. */
    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        methodNames = context.getOperatorStateStore().getUnionListState(Outputs.METHOD_NAME_CHUNKS);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        tasks.snapshotNames(methodNames);
    }

    @Override
    public void processElement(RawRecord record, ReadOnlyContext ctx, Collector<BatchCounts> out) throws Exception {
        DecodedBatch batch;
        try {
            batch = reader.read(record);
        } catch (BatchDecoder.InvalidRecordException e) {
            deadLetter(ctx, record, e.getMessage());
            return;
        }
        InstanceInfo info = batch.instance();
        ExecutionId execution = new ExecutionId(info.getService(), info.getVersion(), info.getInstanceId());
        if (!execution.key().equals(ctx.getCurrentKey())) {
            // state is per execution: a batch filed under another key would corrupt it
            deadLetter(ctx, record, "record key does not match the batch's execution " + execution);
            return;
        }
        if (isDuplicate(info, batch.sequence())) {
            duplicateBatches.inc(); // already merged and counted: a copy changes nothing
            return;
        }
        checkSequence(info, batch.sequence());
        if (batch.stacks() == 0) {
            // a stats-only heartbeat (the agent sends one per flush interval that sampled
            // nothing): it holds no sample, so it opens no window and does not stretch the
            // instance's sample span; only its sequence number counts
            emptyBatches.inc();
            return;
        }

        InstanceTrees.Entry instance = tree(execution.key());
        BatchMerge.Result merged = batchMerge.merge(batch, instance, ctx.timerService().currentProcessingTime());
        int sizeBefore = merged.sizeBefore();
        StackCounts batchCounts = merged.counts();
        hashCollisions.inc(merged.collisions());
        BatchCounts counts = new BatchCounts();
        counts.truncatedMerged = merged.truncatedMerged();
        counts.truncatedPending = merged.truncatedPending();
        counts.truncatedAmbiguous = merged.truncatedAmbiguous();
        List<TruncatedStack> stillPending = merged.pending();
        truncatedMerged.inc(counts.truncatedMerged);
        truncatedPending.inc(counts.truncatedPending);
        truncatedAmbiguous.inc(counts.truncatedAmbiguous);
        batchesMerged.inc();
        samplesMerged.inc(batchCounts.samples());

        Map<Long, StackCounts> retried = new HashMap<>();
        Map<Long, BatchCounts> moved = new LinkedHashMap<>(); // in the order of the pending stacks
        boolean grew = instance.tree().size() > sizeBefore;
        // names are needed for new nodes only: most batches of a running execution create none
        MethodsById methods = batchMethods.reset(batch.methods());
        List<TruncatedStack> kept = retryPending(instance, grew, retried, moved, methods);
        kept.addAll(stillPending);
        keepPending(kept, moved, ctx);

        ctx.output(Outputs.TOPOLOGY, topologyUpdate(batch, execution, instance, sizeBefore, methods));
        tasks.labelNewNodes(ctx, execution.service(), instance, sizeBefore);

        counts.executionKey = execution.key();
        counts.eventTimeMillis = batch.windowStartMillis();
        counts.contributionId = BatchMerge.batchId(batch);
        // the self rows alone: what the graph keeps of a window (totals and method rows are derived on read)
        counts.counts = CountColumns.of(TreeCounts.selfRowsOf(batchCounts).withRawThreadNames(batch.rawThreadNames()));
        counts.source = new RawRecord(record.topic, record.partition, record.offset, record.key, null);
        out.collect(counts);
        emitMoved(execution.key(), retried, moved, counts.source, out);
    }

    /**
     * Retries the pending stacks if the tree grew (no candidate can appear otherwise). Merged ones
     * go into one tree per event time, and their samples move from pending to merged in their own
     * window. Returns the stacks still pending. The names of the merged stacks' methods go into
     * {@code methods}: they may be from older batches, and their new nodes need them.
     */
    private List<TruncatedStack> retryPending(InstanceTrees.Entry instance, boolean grew, Map<Long, StackCounts> retried,
            Map<Long, BatchCounts> moved, MethodsById methods) throws Exception {
        List<TruncatedStack> kept = new ArrayList<>();
        for (TruncatedStack stack : pending.get()) {
            if (grew && merger.tryMerge(instance.index(), stack.methods, stack.lines, stack.depth(), stack.count)
                    == MergeResult.MERGED) {
                batchMerge.addCompleted(
                        retried.computeIfAbsent(stack.id, t -> new StackCounts(instance.tree())), stack);
                BatchCounts delta = outcome(moved, stack);
                delta.truncatedPending -= stack.count;
                delta.truncatedMerged += stack.count;
                truncatedMerged.inc(stack.count);
                truncatedPending.dec(stack.count);
                for (int i = 0; i < stack.depth(); i++) {
                    methods.add(stack.method(i));
                }
            } else {
                // AMBIGUOUS cannot happen here: a retry only runs after NO_CANDIDATE and candidates
                // matching the whole stack would have been found then (the tree only grows)
                kept.add(stack);
            }
        }
        return kept;
    }

    /** Stores the pending stacks within the count bound (oldest expire) and arms the age timer. */
    private void keepPending(List<TruncatedStack> kept, Map<Long, BatchCounts> moved, ReadOnlyContext ctx)
            throws Exception {
        int excess = kept.size() - maxPending;
        for (int i = 0; i < excess; i++) {
            expire(kept.get(i), moved);
        }
        List<TruncatedStack> stored = excess > 0 ? new ArrayList<>(kept.subList(excess, kept.size())) : kept;
        if (stored.isEmpty()) {
            pending.clear();
            Long timer = pendingTimer.value();
            if (timer != null) {
                ctx.timerService().deleteProcessingTimeTimer(timer);
                pendingTimer.clear();
            }
            return;
        }
        pending.update(stored);
        if (pendingTimer.value() == null) {
            long at = oldest(stored) + maxPendingAgeMillis;
            ctx.timerService().registerProcessingTimeTimer(at);
            pendingTimer.update(at);
        }
    }

    /**
     * The counts that record what became of a pending stack: a contribution of their own to the
     * stack's window, named by the stack ({@link ContributionIds#ofTruncatedStack}), so the graph
     * adds it once.
     */
    private static BatchCounts outcome(Map<Long, BatchCounts> moved, TruncatedStack stack) {
        return moved.computeIfAbsent(stack.id, id -> {
            BatchCounts delta = new BatchCounts();
            delta.eventTimeMillis = stack.eventTimeMillis;
            delta.contributionId = id;
            return delta;
        });
    }

    private void expire(TruncatedStack stack, Map<Long, BatchCounts> moved) {
        BatchCounts delta = outcome(moved, stack);
        delta.truncatedPending -= stack.count;
        delta.truncatedExpired += stack.count;
        truncatedExpired.inc(stack.count);
        truncatedPending.dec(stack.count);
    }

    private static long oldest(List<TruncatedStack> stacks) {
        long oldest = Long.MAX_VALUE;
        for (TruncatedStack s : stacks) {
            oldest = Math.min(oldest, s.pendingSinceMillis);
        }
        return oldest;
    }

    /** Expires pending stacks older than the bound; re-arms for the next one. */
    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<BatchCounts> out) throws Exception {
        pendingTimer.clear();
        Map<Long, BatchCounts> moved = new LinkedHashMap<>(); // in the order of the pending stacks
        List<TruncatedStack> kept = new ArrayList<>();
        for (TruncatedStack stack : pending.get()) {
            if (stack.pendingSinceMillis + maxPendingAgeMillis <= timestamp) {
                expire(stack, moved);
            } else {
                kept.add(stack);
            }
        }
        keepPending(kept, moved, ctx);
        emitMoved(ctx.getCurrentKey(), Map.of(), moved, null, out);
    }

    private static void emitMoved(String key, Map<Long, StackCounts> retried, Map<Long, BatchCounts> moved, RawRecord source,
            Collector<BatchCounts> out) {
        for (Map.Entry<Long, BatchCounts> e : moved.entrySet()) {
            BatchCounts delta = e.getValue();
            delta.executionKey = key;
            StackCounts merged = retried.get(e.getKey());
            delta.counts = merged == null ? new CountColumns() : CountColumns.of(TreeCounts.selfRowsOf(merged));
            delta.source = source;
            out.collect(delta);
        }
    }

    /** Adds a merged truncated stack to {@code into} as the full path the merger completed it to. */

    private void deadLetter(ReadOnlyContext ctx, RawRecord record, String reason) {
        deadLettered.inc();
        ctx.output(Outputs.DEAD_LETTERS, new DeadLetter(record, reason + " [" + record.origin() + "]"));
    }

    private boolean isDuplicate(InstanceInfo info, long sequence) throws Exception {
        long[] state = seenBatches.value();
        if (state == null) {
            state = SeenBatches.none();
        }
        SeenBatches.Verdict verdict = SeenBatches.accept(state, info.getStartTimeMillis(), info.getPid(), sequence);
        if (verdict == SeenBatches.Verdict.DUPLICATE) {
            return true;
        }
        if (verdict == SeenBatches.Verdict.UNCHECKED) {
            uncheckedBatches.inc();
        }
        seenBatches.update(state);
        return false;
    }

    private void checkSequence(InstanceInfo info, long sequence) throws Exception {
        long[] state = lastSequence.value();
        if (state == null) {
            state = RunSequences.none();
        }
        sequenceGaps.inc(RunSequences.accept(state, info.getStartTimeMillis(), info.getPid(), sequence));
        lastSequence.update(state);
    }

    /**
     * A record of the task definitions topic: a new, changed or deleted definition is stored in
     * broadcast state and applied to the existing nodes of every execution it concerns; an invalid
     * one is dead-lettered with the reason and removes the definition with its id.
     */
    @Override
    public void processBroadcastElement(RawRecord record, Context ctx, Collector<BatchCounts> out) throws Exception {
        tasks.apply(record, ctx, this::tree);
    }

    /** The tree of the current key, rebuilt from its state if not in memory. */
    private InstanceTrees.Entry tree(String key) throws Exception {
        return trees.get(key, legacyNodes::get, treeChunks::get);
    }

    /**
     * Appends the batch's new nodes (from {@code sizeBefore}) to the execution's state as one chunk;
     * past {@link StoredNodes#MAX_CHUNKS} chunks, or if some nodes are still in the first form
     * (restored from an older savepoint), writes the whole tree as one chunk instead: from the
     * tree in memory, which holds what state holds, so state is never read here.
     */
    private void storeNodes(InstanceTrees.Entry instance, int sizeBefore) throws Exception {
        Cct tree = instance.tree();
        if (instance.legacy || (tree.size() > sizeBefore && instance.storedChunks >= StoredNodes.MAX_CHUNKS)) {
            treeChunks.update(List.of(StoredNodes.encode(tree, 1, tree.size())));
            instance.storedChunks = 1;
            if (instance.legacy) {
                legacyNodes.clear();
                tasks.dropLegacyNames();
                instance.legacy = false;
            }
        } else if (tree.size() > sizeBefore) {
            treeChunks.add(StoredNodes.encode(tree, sizeBefore, tree.size()));
            instance.storedChunks++;
        }
    }

    /**
     * The nodes the execution's tree gained in this batch (indexes from {@code sizeBefore}, parents
     * first), stored in state and sent to the graph with their methods.
     */
    private TopologyUpdate topologyUpdate(DecodedBatch batch, ExecutionId execution, InstanceTrees.Entry entry, int sizeBefore,
            MethodsById methods) throws Exception {
        Cct tree = entry.tree();
        List<NodeRecord> created = new ArrayList<>(tree.size() - sizeBefore);
        List<MethodRecord> usedMethods = new ArrayList<>();
        usedMethodIds.clear();
        for (int n = sizeBefore; n < tree.size(); n++) {
            int rp = tree.recursiveParent(n);
            NodeRecord node = new NodeRecord(tree.id(n), tree.id(tree.parent(n)), tree.method(n), tree.callSiteLine(n),
                    tree.depth(n), rp == Cct.NONE ? NodeRecord.NO_RECURSIVE_PARENT : tree.id(rp));
            created.add(node);
            MethodRecord method = methods.get(node.methodId());
            if (method == null) {
                throw new IllegalStateException("no name for method " + node.methodId() + " of new node " + node.id());
            }
            if (usedMethodIds.get(method.id()) < 0) {
                usedMethodIds.put(method.id(), usedMethods.size());
                usedMethods.add(method);
            }
        }
        storeNodes(entry, sizeBefore);
        tasks.rememberNames(usedMethods);
        nodesCreated.inc(created.size());
        InstanceInfo info = batch.instance();
        InstanceRecord instance = new InstanceRecord(execution.service(), execution.version(), execution.instance(),
                info.getHost(), info.getPid(), info.getStartTimeMillis(), info.getLabels(),
                batch.windowStartMillis(), batch.windowEndMillis());
        return new TopologyUpdate(instance, usedMethods.toArray(MethodRecord[]::new),
                created.toArray(NodeRecord[]::new));
    }
}
