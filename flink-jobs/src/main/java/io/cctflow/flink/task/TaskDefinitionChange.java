package io.cctflow.flink.task;

import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.TaskDefinitionRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An accepted task definition to store, or the id of one to delete. A Flink POJO. */
public class TaskDefinitionChange {
    public String id;
    /** The definition to store; {@code null} when it was deleted or replaced by a rejected one. */
    public TaskDefinitionRecord definition;

    public TaskDefinitionChange() {
    }

    public TaskDefinitionChange(String id, TaskDefinitionRecord definition) {
        this.id = id;
        this.definition = definition;
    }

    /** Applies changes in order (the last per id wins): stores definitions, deletes the others. Idempotent. */
    public static void write(GraphWriter writer, List<TaskDefinitionChange> changes) {
        Map<String, TaskDefinitionChange> last = new LinkedHashMap<>();
        for (TaskDefinitionChange c : changes) {
            last.put(c.id, c);
        }
        List<TaskDefinitionRecord> stored = new ArrayList<>();
        List<String> deleted = new ArrayList<>();
        for (TaskDefinitionChange c : last.values()) {
            if (c.definition == null) {
                deleted.add(c.id);
            } else {
                stored.add(c.definition);
            }
        }
        writer.writeTaskDefinitions(stored);
        writer.deleteTaskDefinitions(deleted);
    }
}
