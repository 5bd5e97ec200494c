package io.cctflow.flink.task;

import io.cctflow.core.task.TaskDefinition;
import io.cctflow.core.task.TaskLabeller;
import io.cctflow.core.task.TaskLabels;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongFunction;

/**
 * The cct-core {@link TaskLabeller} of one service (made from the definitions that apply to it)
 * and the sorted task names of its label sets, computed once per set. Sorted, so every instance
 * and subtask stores the same list for the same labels. Not thread-safe.
 */
public final class ServiceLabeller {
    private final TaskLabeller labeller;
    private final boolean hasDefinitions;
    private final List<List<String>> names = new ArrayList<>();

    ServiceLabeller(LongFunction<String> qualifiedNameOf, List<TaskDefinition> definitions) {
        this.labeller = new TaskLabeller(qualifiedNameOf, definitions);
        this.hasDefinitions = !definitions.isEmpty();
    }

    public TaskLabeller labeller() {
        return labeller;
    }

    /** False when no definition applies to the service: every node's labels are empty. */
    public boolean hasDefinitions() {
        return hasDefinitions;
    }

    /**
     * The tasks {@code node} is a task root of (seed 002 Eq. 3.24): those it carries and its parent
     * does not, sorted; empty for most nodes. A node's labels are its parent's plus these, so the
     * graph stores only these and readers take the subtrees below them.
     */
    public List<String> rootOf(TaskLabels labels, int node) {
        int set = labels.labelSet(node);
        int parentSet = labels.labelSet(labels.tree().parent(node));
        if (set == parentSet) {
            return List.of();
        }
        List<String> inherited = names(parentSet);
        List<String> own = new ArrayList<>();
        for (String task : names(set)) {
            if (!inherited.contains(task)) {
                own.add(task);
            }
        }
        return own;
    }

    /** The task names of a label set of {@link #labeller()}, sorted; the caller must not modify the list. */
    public List<String> names(int labelSet) {
        while (names.size() <= labelSet) {
            names.add(null);
        }
        List<String> sorted = names.get(labelSet);
        if (sorted == null) {
            List<String> list = new ArrayList<>(labeller.taskNamesOf(labelSet));
            list.sort(null);
            sorted = List.copyOf(list);
            names.set(labelSet, sorted);
        }
        return sorted;
    }
}
