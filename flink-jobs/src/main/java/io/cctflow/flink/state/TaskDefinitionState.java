package io.cctflow.flink.state;

import io.cctflow.core.task.MatchType;
import io.cctflow.model.TaskDefinitionRecord;
import java.util.Objects;

/**
 * An accepted task definition as the samples job keeps it in broadcast state (and so in its
 * checkpoints and savepoints), serialized by {@link TaskDefinitionStateSerializer}: the job's own
 * type, so a change to the pipeline's records ({@link TaskDefinitionRecord}) cannot change the
 * savepoint format unnoticed.
 *
 * @param service the only service it applies to, or {@code null} for every service
 */
public record TaskDefinitionState(String id, String service, MatchType matchType, String pattern,
        String nameTemplate, long updatedMillis) {

    public TaskDefinitionState {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(matchType, "matchType");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(nameTemplate, "nameTemplate");
    }

    /** The state form of {@code r}. */
    public static TaskDefinitionState of(TaskDefinitionRecord r) {
        return new TaskDefinitionState(r.id(), r.service(), r.matchType(), r.pattern(), r.nameTemplate(),
                r.updatedMillis());
    }

    /** The pipeline's record of this definition. */
    public TaskDefinitionRecord toRecord() {
        return new TaskDefinitionRecord(id, service, matchType, pattern, nameTemplate, updatedMillis);
    }
}
