package io.cctflow.flink.task;

import io.cctflow.flink.cct.CctMergeFunction;
import io.cctflow.flink.cct.InstanceTrees;
import io.cctflow.flink.state.StoredNames;
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
import org.apache.flink.runtime.state.KeyedStateFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task-label half of {@link CctMergeFunction} (seed 002 Sect. 3.3.3): labels new nodes from
 * their parents and applies definition changes to existing nodes. cct-core's {@link TaskLabeller}
 * (one per service, see {@link TaskDefinitions}) does all matching; labels are a pure function of
 * path, service and definitions, so they are computed on the in-memory trees and never kept in
 * state, only the method names they need: the subtask's, once each, in operator state ({@link
 * Outputs#METHOD_NAME_CHUNKS}: written at each checkpoint, every subtask's read back by every
 * subtask after a restore); those of a savepoint from before 2026-11-30, kept per execution ({@link
 * Outputs#LEGACY_CCT_METHOD_NAME_CHUNKS}), are read when an execution's tree needs them.
 *
 * <p>One per operator instance, used only from its task thread: not thread-safe.
 */
public final class TaskLabelling {
    private static final Logger LOG = LoggerFactory.getLogger(TaskLabelling.class);

    /** An execution's tree by its key, read from keyed state when not in memory; the key must be the current one. */
    @FunctionalInterface
    public interface Trees {
        InstanceTrees.Entry of(String key) throws Exception;
    }

    /** Chunks of names an operator-state snapshot holds before they are compacted into one. */
    private static final int MAX_NAME_CHUNKS = 32;

    private final ListState<byte[]> legacyNames;
    /** Method id to {@code className.methodName} for every execution of this subtask. */
    private final Map<Long, String> qualifiedNames = new HashMap<>();
    /** The names of {@link #qualifiedNames} as its operator state holds them, less those below. */
    private List<byte[]> nameChunks = new ArrayList<>();
    /** Names added since the last snapshot. */
    private final List<Long> newIds = new ArrayList<>();
    private final List<String> newNames = new ArrayList<>();
    /** Definition changes and rejections are the same on every subtask: only the first emits them. */
    private final boolean firstSubtask;
    private final Counter rejected;
    private final Counter labelsUpdated;
    /** Parsed view of the broadcast state; {@code null} until first used after (re)start. */
    private TaskDefinitions definitions;

    /**
     * @param legacyNames the current key's names in a savepoint from before 2026-11-30 ({@link
     *     Outputs#LEGACY_CCT_METHOD_NAME_CHUNKS})
     */
    public TaskLabelling(ListState<byte[]> legacyNames, MetricGroup metrics, boolean firstSubtask) {
        this.legacyNames = legacyNames;
        this.firstSubtask = firstSubtask;
        this.rejected = metrics.counter("taskDefinitionsRejected");
        this.labelsUpdated = metrics.counter("nodeLabelsUpdated");
    }

    /** Keeps the names of the methods of the current key's new nodes (those new to the subtask). */
    public void rememberNames(Collection<MethodRecord> methods) {
        for (MethodRecord m : methods) {
            if (!qualifiedNames.containsKey(m.id())) {
                remember(m.id(), qualifiedName(m));
            }
        }
    }

    private void remember(long id, String name) {
        if (qualifiedNames.putIfAbsent(id, name) == null) {
            newIds.add(id);
            newNames.add(name);
        }
    }

    /** After a start or a restore: the names every subtask had at the checkpoint ({@link Outputs#METHOD_NAME_CHUNKS}). */
    public void restoreNames(Iterable<byte[]> chunks) throws Exception {
        if (chunks != null) {
            for (byte[] chunk : chunks) {
                StoredNames.decode(chunk, qualifiedNames::putIfAbsent);
            }
        }
        nameChunks = allNames();
        newIds.clear();
        newNames.clear();
    }

    /** At a checkpoint: the subtask's names into its operator state, the new ones as a chunk of their own. */
    public void snapshotNames(ListState<byte[]> state) throws Exception {
        if (!newIds.isEmpty()) {
            nameChunks.add(StoredNames.encode(newIds, newNames));
            newIds.clear();
            newNames.clear();
        }
        if (nameChunks.size() > MAX_NAME_CHUNKS) {
            nameChunks = allNames();
        }
        state.update(nameChunks);
    }

    private List<byte[]> allNames() {
        List<byte[]> all = new ArrayList<>();
        if (!qualifiedNames.isEmpty()) {
            all.add(StoredNames.encode(new ArrayList<>(qualifiedNames.keySet()), new ArrayList<>(qualifiedNames.values())));
        }
        return all;
    }

    /**
     * The current key's names in a savepoint from before 2026-11-30 into the subtask's names. Only a
     * tree with nodes in the first form has them (both are cleared together when it is rewritten),
     * so other keys cost no state read (with RocksDB a look-up per execution per definition change).
     */
    private void readLegacyNames(InstanceTrees.Entry instance) throws Exception {
        if (!instance.legacy()) {
            return;
        }
        readLegacyNames();
    }

    private void readLegacyNames() throws Exception {
        Iterable<byte[]> chunks = legacyNames.get();
        if (chunks != null) {
            for (byte[] chunk : chunks) {
                StoredNames.decode(chunk, this::remember);
            }
        }
    }

    /** Moves the current key's names of a savepoint from before 2026-11-30 into the subtask's names. */
    public void dropLegacyNames() throws Exception {
        readLegacyNames();
        legacyNames.clear();
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
        readLegacyNames(instance);
        TaskLabels fresh = labeller.labeller().label(instance.tree());
        instance.setLabels(fresh);
        return fresh;
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
    private void relabel(CctMergeFunction.Context ctx, Trees trees, TaskDefinitions before,
            TaskDefinitions after, TaskDefinitionRecord previous, TaskDefinitionRecord next) throws Exception {
        long started = System.nanoTime();
        Map<String, Set<Long>> emitted = new HashMap<>();
        long[] executions = new long[1];
        Set<String> visited = new HashSet<>();
        KeyedStateFunction<String, ListState<byte[]>> relabelKey = (key, ignored) -> {
            String service = ExecutionId.fromKey(key).service();
            if (!TaskDefinitions.touches(previous, next, service) || !visited.add(key)) {
                return;
            }
            executions[0]++;
            InstanceTrees.Entry instance = trees.of(key);
            ServiceLabeller was = before.forService(service);
            ServiceLabeller now = after.forService(service);
            TaskLabels old = labelsOf(instance, was);
            readLegacyNames(instance);
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
        };
        // every execution with a tree: those restored from a savepoint before 2026-11-30 and not
        // rewritten since have their nodes in the first form only
        ctx.applyToKeyedState(Outputs.CCT_TREE_CHUNKS, relabelKey);
        ctx.applyToKeyedState(Outputs.LEGACY_CCT_NODE_CHUNKS, relabelKey);
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
    public void apply(RawRecord record, CctMergeFunction.Context ctx, Trees trees) throws Exception {
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
