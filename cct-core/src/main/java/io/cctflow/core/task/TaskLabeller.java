package io.cctflow.core.task;

import io.cctflow.core.Cct;
import io.cctflow.core.collect.LongIntMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongFunction;

/**
 * Labels CCT nodes with tasks (seed 002 Sect. 3.3.3): a node's tasks are its parent's tasks plus
 * the tasks its own method matches, so each node's label set is the union of the matches of the
 * methods on its path.
 *
 * <p>Owns the dictionaries: task names are interned to dense task ids, label sets to dense label
 * set ids (see {@link #tasksOf}), and each method id's own matches are cached, so each distinct
 * method is matched against each definition exactly once over the labeller's lifetime, including
 * definitions added later. Scope a labeller to the lifetime of the method ids and definitions it
 * sees; {@link TaskLabels} produced by it share its dictionaries.
 *
 * <p>Not thread-safe.
 */
public final class TaskLabeller {
    /** The label set id of the empty set. */
    public static final int NO_TASKS = LabelSets.EMPTY;

    private final LongFunction<String> qualifiedNameOf;
    private final List<TaskDefinition> definitions = new ArrayList<>();
    private final List<String> taskNames = new ArrayList<>();
    private final Map<String, Integer> taskIds = new HashMap<>();
    private final LabelSets sets = new LabelSets();
    // per method: slot -> (label set of its own matches, number of definitions applied)
    private final LongIntMap methodSlots = new LongIntMap(256);
    private int[] methodMatches = new int[256];
    private int[] methodDefinitionsApplied = new int[256];
    private int methodCount;

    /**
     * @param qualifiedNameOf resolves a method id to {@code className.methodName} (no descriptor), or
     *     {@code null} for an unknown id (it then matches nothing); called once per distinct method
     * @param definitions initial definitions, ids unique
     */
    public TaskLabeller(LongFunction<String> qualifiedNameOf, List<TaskDefinition> definitions) {
        this.qualifiedNameOf = Objects.requireNonNull(qualifiedNameOf, "qualifiedNameOf");
        for (TaskDefinition d : definitions) {
            addDefinition(d);
        }
    }

    /**
     * Adds a definition. Labels computed before are stale: call {@link TaskLabels#relabel()} (or
     * {@link TaskLabels#update()}, which notices). Cached methods are matched against only the new
     * definition.
     *
     * @throws IllegalArgumentException if a definition with the same id exists
     */
    public void addDefinition(TaskDefinition definition) {
        Objects.requireNonNull(definition, "definition");
        for (TaskDefinition d : definitions) {
            if (d.id().equals(definition.id())) {
                throw new IllegalArgumentException("Task definition id '" + definition.id()
                        + "' is already used; give each definition a unique id");
            }
        }
        definitions.add(definition);
    }

    public List<TaskDefinition> definitions() {
        return List.copyOf(definitions);
    }

    /** Number of definitions; {@link TaskLabels} compare it to notice new ones. */
    int definitionCount() {
        return definitions.size();
    }

    /** The id of a task name produced so far, or -1 if no method matched with that name yet. */
    public int taskId(String taskName) {
        Integer id = taskIds.get(taskName);
        return id == null ? -1 : id;
    }

    public String taskName(int taskId) {
        return taskNames.get(taskId);
    }

    /** Number of distinct task names produced so far; task ids are {@code 0..taskCount()-1}. */
    public int taskCount() {
        return taskNames.size();
    }

    /** Number of distinct label sets so far; label set ids are {@code 0..labelSetCount()-1}. */
    public int labelSetCount() {
        return sets.size();
    }

    /** The task ids of a label set, ascending (a copy). */
    public int[] tasksOf(int labelSet) {
        return sets.members(labelSet).clone();
    }

    /** The task names of a label set, in task id order. */
    public List<String> taskNamesOf(int labelSet) {
        int[] members = sets.members(labelSet);
        List<String> names = new ArrayList<>(members.length);
        for (int t : members) {
            names.add(taskNames.get(t));
        }
        return names;
    }

    public boolean contains(int labelSet, int taskId) {
        return sets.contains(labelSet, taskId);
    }

    /** For each label set id, whether it contains any of the tasks: Eq. 3.23's {@code tasks ∩ T ≠ ∅}. */
    public boolean[] intersecting(int... taskIds) {
        boolean[] result = new boolean[sets.size()];
        for (int s = 0; s < result.length; s++) {
            int[] members = sets.members(s);
            for (int t : taskIds) {
                if (Arrays.binarySearch(members, t) >= 0) {
                    result[s] = true;
                    break;
                }
            }
        }
        return result;
    }

    /**
     * The labels of a child node from its parent's labels, without a tree: for a streaming job that
     * keeps each node's label set id in state. O(1) amortized after the method's first occurrence.
     */
    public int childLabels(int parentLabelSet, long methodId) {
        return sets.union(parentLabelSet, ownMatches(methodId));
    }

    /** The label set of the tasks a method itself matches (not inherited). */
    public int ownMatches(long methodId) {
        int slot = methodSlots.get(methodId);
        if (slot < 0) {
            slot = newMethodSlot(methodId);
        }
        if (methodDefinitionsApplied[slot] < definitions.size()) {
            String name = qualifiedNameOf.apply(methodId);
            int matches = methodMatches[slot];
            for (int d = methodDefinitionsApplied[slot]; d < definitions.size(); d++) {
                String task = definitions.get(d).taskNameFor(name);
                if (task != null) {
                    matches = sets.union(matches, sets.singleton(internTask(task)));
                }
            }
            methodMatches[slot] = matches;
            methodDefinitionsApplied[slot] = definitions.size();
        }
        return methodMatches[slot];
    }

    /** Labels every node of a tree: one top-down pass, O(nodes). */
    public TaskLabels label(Cct tree) {
        TaskLabels labels = new TaskLabels(this, tree);
        labels.update();
        return labels;
    }

    private int newMethodSlot(long methodId) {
        if (methodCount == methodMatches.length) {
            methodMatches = Arrays.copyOf(methodMatches, methodCount * 2);
            methodDefinitionsApplied = Arrays.copyOf(methodDefinitionsApplied, methodCount * 2);
        }
        int slot = methodCount++;
        methodMatches[slot] = NO_TASKS;
        methodDefinitionsApplied[slot] = 0;
        methodSlots.put(methodId, slot);
        return slot;
    }

    private int internTask(String name) {
        Integer id = taskIds.get(name);
        if (id != null) {
            return id;
        }
        int next = taskNames.size();
        taskNames.add(name);
        taskIds.put(name, next);
        return next;
    }
}
