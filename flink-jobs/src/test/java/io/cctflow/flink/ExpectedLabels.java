package io.cctflow.flink;

import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import io.cctflow.core.task.MatchType;
import io.cctflow.core.task.TaskDefinition;
import io.cctflow.core.task.TaskLabeller;
import io.cctflow.core.task.TaskLabels;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The reference: cct-core's labelling from scratch of a whole tree of {@link TestBatches} methods. */
final class ExpectedLabels {
    private ExpectedLabels() {
    }

    /**
     * Node id to the sorted names of the tasks it is a root of (it carries them, its parent does
     * not), for every task root of {@code tree}, by the wire definitions that apply to
     * {@code service}: what the samples job stores.
     */
    static Map<Long, List<String>> of(Cct tree, String service, Iterable<io.cctflow.schema.TaskDefinition> definitions,
            int alphabet) {
        Map<Long, String> names = new HashMap<>();
        for (int m = 0; m < alphabet; m++) {
            names.put(MethodId.of("T", "m" + m, "()V"), "T.m" + m);
        }
        List<TaskDefinition> applying = new ArrayList<>();
        for (var d : definitions) {
            if (d.getService() == null || d.getService().equals(service)) {
                applying.add(core(d));
            }
        }
        TaskLabels labels = new TaskLabeller(names::get, applying).label(tree);
        Map<Long, List<String>> expected = new HashMap<>();
        for (int n = 1; n < tree.size(); n++) {
            List<String> tasks = new ArrayList<>(labels.taskNames(n));
            tasks.removeAll(labels.taskNames(tree.parent(n)));
            Collections.sort(tasks);
            if (!tasks.isEmpty()) {
                expected.put(tree.id(n), tasks);
            }
        }
        return expected;
    }

    /** The cct-core definition of a wire definition; throws IllegalArgumentException if invalid. */
    static TaskDefinition core(io.cctflow.schema.TaskDefinition d) {
        return new TaskDefinition(d.getId(), MatchType.valueOf(d.getMatchType().name()), d.getPattern(),
                d.getNameTemplate());
    }
}
