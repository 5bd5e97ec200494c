package io.cctflow.flink.task;

import io.cctflow.core.task.TaskDefinition;
import io.cctflow.core.task.TaskLabeller;
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
