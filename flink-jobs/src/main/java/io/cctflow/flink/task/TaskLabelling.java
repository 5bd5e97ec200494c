package io.cctflow.flink.task;

import io.cctflow.flink.cct.CctMergeFunction;
import io.cctflow.flink.cct.InstanceTrees;
import io.cctflow.flink.state.StoredNames;
import io.cctflow.flink.state.StoredNodes;
import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.task.TaskLabeller;
import io.cctflow.core.task.TaskLabels;
import io.cctflow.flink.Outputs;
import io.cctflow.flink.ingest.BatchDecoder;
import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.flink.ingest.TaskDefinitionDecoder;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeTasks;
import io.cctflow.flink.state.TaskDefinitionState;
import io.cctflow.model.TaskDefinitionRecord;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task-label half of {@link CctMergeFunction} (seed 002 Sect. 3.3.3): labels new nodes from
 * their parents and applies definition changes to existing nodes. cct-core's {@link TaskLabeller}
 * (one per service, see {@link TaskDefinitions}) does all matching; labels are a pure function of
 * path, service and definitions, so they are computed on the in-memory trees and never kept in
 * state, only the method names they need ({@link Outputs#CCT_METHOD_NAME_CHUNKS}).
 *
 * <p>One per operator instance, used only from its task thread: not thread-safe.
 */
public final class TaskLabelling {
    private static final Logger LOG = LoggerFactory.getLogger(TaskLabelling.class);

    private final ListState<byte[]> methodNames;
    /** Method id to {@code className.methodName} for every execution of this subtask: derived, filled from state. */
    private final Map<Long, String> qualifiedNames = new HashMap<>();
    /** Definition changes and rejections are the same on every subtask: only the first emits them. */
    private final boolean firstSubtask;
    private final Counter rejected;
    private final Counter labelsUpdated;
    /** Parsed view of the broadcast state; {@code null} until first used after (re)start. */
    private TaskDefinitions definitions;

    public TaskLabelling(ListState<byte[]> methodNames, MetricGroup metrics, boolean firstSubtask) {
        this.methodNames = methodNames;
        this.firstSubtask = firstSubtask;
        this.rejected = metrics.counter("taskDefinitionsRejected");
        this.labelsUpdated = metrics.counter("nodeLabelsUpdated");
    }

    /**
     * Keeps the names of methods new to the current key's tree (the caller passes each method once
     * per execution: those of its new nodes that no older node has), in state as one chunk and in
     * memory.
     */
    public void rememberNames(Collection<MethodRecord> methods) throws Exception {
        if (methods.isEmpty()) {
            return;
        }
        List<Long> ids = new ArrayList<>(methods.size());
        List<String> names = new ArrayList<>(methods.size());
        for (MethodRecord m : methods) {
            // most executions of a service share their methods: the name is made once per subtask
            String name = qualifiedNames.computeIfAbsent(m.id(), id -> qualifiedName(m));
            ids.add(m.id());
            names.add(name);
        }
        methodNames.add(StoredNames.encode(ids, names));
    }

    /** Rewrites the current key's chunks of names as one (when its chunks of nodes are compacted). */
    public void compactNames() throws Exception {
        Iterable<byte[]> chunks = methodNames.get();
        if (chunks != null) {
            methodNames.update(List.of(StoredNodes.concat(chunks)));
        }
    }

    /** What task definitions match: {@code className.methodName}. */
    private static String qualifiedName(MethodRecord m) {
        return m.className() + "." + m.methodName();
    }

    /**
     * Labels the nodes the execution's tree gained (indexes from {@code sizeBefore}) from their
     * parents' labels, and emits those that are task roots, with the tasks they are roots of. Labels of the whole tree are computed
     * first if the cached ones are missing or were made with other definitions.
     */
    public void labelNewNodes(CctMergeFunction.ReadOnlyContext ctx, String service, InstanceTrees.Entry instance,
            int sizeBefore) throws Exception {
        if (instance.tree().size() == sizeBefore) {
            return;
        }
        ServiceLabeller labeller = definitions(ctx.getBroadcastState(Outputs.TASK_DEFINITIONS)).forService(service);
        if (!labeller.hasDefinitions()) {
            return;
        }
        TaskLabels labels = labelsOf(instance, labeller);
        Cct tree = instance.tree();
        for (int n = sizeBefore; n < tree.size(); n++) {
            List<String> roots = labeller.rootOf(labels, n);
            if (!roots.isEmpty()) {
                ctx.output(Outputs.NODE_TASKS, new NodeTasks(service, tree.id(n), roots));
                labelsUpdated.inc();
            }
        }
    }

    /** The labels of the current key's tree by {@code labeller}: brought up to date, or computed afresh. */
    private TaskLabels labelsOf(InstanceTrees.Entry instance, ServiceLabeller labeller) throws Exception {
        TaskLabels kept = instance.labels();
        if (kept != null && kept.labeller() == labeller.labeller()) {
            kept.update();
            return kept;
        }
        loadMethodNames();
        TaskLabels fresh = labeller.labeller().label(instance.tree());
        instance.setLabels(fresh);
        return fresh;
    }

    /** Makes the names of the current key's methods known to the labellers. */
    private void loadMethodNames() throws Exception {
        Iterable<byte[]> chunks = methodNames.get();
        if (chunks == null) {
            return;
        }
        for (byte[] chunk : chunks) {
            StoredNames.decode(chunk, qualifiedNames::putIfAbsent);
        }
    }

    private String knownQualifiedName(long methodId) {
        String name = qualifiedNames.get(methodId);
        if (name == null) {
            throw new IllegalStateException("no name for method " + methodId + " to match task definitions against");
        }
        return name;
    }

    /** The parsed definitions, read from broadcast state on first use (after a start or a restore). */
    private TaskDefinitions definitions(ReadOnlyBroadcastState<String, TaskDefinitionState> state) throws Exception {
        if (definitions == null) {
            List<TaskDefinitionRecord> stored = new ArrayList<>();
            for (Map.Entry<String, TaskDefinitionState> e : state.immutableEntries()) {
                stored.add(e.getValue().toRecord());
            }
            definitions = TaskDefinitions.of(stored, this::knownQualifiedName);
        }
        return definitions;
    }

    /**
     * Applies a definition change to every execution's existing nodes: labels by the definitions
     * {@code before} and {@code after}, compared node by node; each (service, node) whose task
     * roots changed is emitted once per change (an empty list: no longer a root), however many
     * executions of the service hold it. Only roots are stored, so a definition that labels a
     * million nodes below ten thousand roots writes ten thousand rows.
     */
    private void relabel(CctMergeFunction.Context ctx, InstanceTrees trees, TaskDefinitions before,
            TaskDefinitions after, TaskDefinitionRecord previous, TaskDefinitionRecord next) throws Exception {
        long started = System.nanoTime();
        Map<String, Set<Long>> emitted = new HashMap<>();
        long[] executions = new long[1];
        ctx.applyToKeyedState(Outputs.CCT_NODE_CHUNKS, (key, nodes) -> {
            String service = ExecutionId.fromKey(key).service();
            if (!TaskDefinitions.touches(previous, next, service)) {
                return;
            }
            executions[0]++;
            InstanceTrees.Entry instance = trees.get(key, nodes::get);
            ServiceLabeller was = before.forService(service);
            ServiceLabeller now = after.forService(service);
            TaskLabels old = labelsOf(instance, was);
            loadMethodNames();
            TaskLabels current = now.labeller().label(instance.tree());
            instance.setLabels(current);
            Set<Long> done = emitted.computeIfAbsent(service, s -> new HashSet<>());
            Cct tree = instance.tree();
            for (int n = 1; n < tree.size(); n++) {
                List<String> roots = now.rootOf(current, n);
                if (!was.rootOf(old, n).equals(roots) && done.add(tree.id(n))) {
                    ctx.output(Outputs.NODE_TASKS, new NodeTasks(service, tree.id(n), roots));
                    labelsUpdated.inc();
                }
            }
        });
        long updates = emitted.values().stream().mapToLong(Set::size).sum();
        LOG.info("task definition '{}' {}: {} executions relabelled, {} node label updates, in {} ms",
                previous != null ? previous.id() : next.id(), next == null ? "removed" : previous == null ? "added"
                : "changed", executions[0], updates, (System.nanoTime() - started) / 1_000_000);
    }

    /**
     * A record of the task definitions topic: a new, changed or deleted definition is stored in
     * broadcast state and applied to the existing nodes of every execution it concerns; an invalid
     * one is dead-lettered with the reason and removes the definition with its id.
     */
    public void apply(RawRecord record, CctMergeFunction.Context ctx, InstanceTrees trees) throws Exception {
        String id;
        TaskDefinitionRecord next;
        try {
            TaskDefinitionDecoder.Update update = TaskDefinitionDecoder.decode(record);
            id = update.id();
            next = update.definition();
        } catch (BatchDecoder.InvalidRecordException e) {
            rejected.inc();
            if (firstSubtask) {
                ctx.output(Outputs.DEAD_LETTERS, new DeadLetter(record, e.getMessage() + " [" + record.origin() + "]"));
            }
            id = TaskDefinitionDecoder.id(record);
            next = null;
            if (id == null) {
                return;
            }
        }
        BroadcastState<String, TaskDefinitionState> state = ctx.getBroadcastState(Outputs.TASK_DEFINITIONS);
        TaskDefinitions before = definitions(state);
        TaskDefinitionRecord previous = before.get(id);
        if (previous == null && next == null) {
            return; // deleting what does not exist
        }
        if (next == null) {
            state.remove(id);
        } else {
            state.put(id, TaskDefinitionState.of(next));
        }
        if (firstSubtask) {
            ctx.output(Outputs.TASK_DEFINITION_CHANGES, new TaskDefinitionChange(id, next));
        }
        if (previous != null && previous.sameDefinition(next)) {
            return; // only updatedMillis changed: same labels
        }
        definitions = before.with(id, next);
        relabel(ctx, trees, before, definitions, previous, next);
    }
}
