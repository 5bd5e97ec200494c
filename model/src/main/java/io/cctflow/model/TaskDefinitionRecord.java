package io.cctflow.model;

import io.cctflow.core.task.MatchType;
import io.cctflow.core.task.TaskDefinition;
import java.util.Objects;

/**
 * An accepted task definition as stored: the wire {@code TaskDefinition} without Avro. Two records
 * that differ only in {@code updatedMillis} define the same task ({@link #sameDefinition}).
 *
 * @param service the only service it applies to, or {@code null} for every service
 * @param pattern matched against {@code className.methodName} as {@code matchType} says
 * @param nameTemplate task name; {@code ${group}} names a named group of a REGEX pattern
 * @param updatedMillis when it was last changed (epoch milliseconds), as the publisher said
 */
public record TaskDefinitionRecord(String id, String service, MatchType matchType, String pattern,
        String nameTemplate, long updatedMillis) {

    public TaskDefinitionRecord {
        Objects.requireNonNull(id, "id");
    }

    /** Whether this definition applies to {@code service}. */
    public boolean appliesTo(String service) {
        return this.service == null || this.service.equals(service);
    }

    /**
     * The cct-core definition, validated.
     *
     * @throws IllegalArgumentException naming the definition and what to fix (bad regex, template
     *     naming an unknown group, missing fields)
     */
    public TaskDefinition toDefinition() {
        return new TaskDefinition(id, matchType, pattern, nameTemplate);
    }

    /** Same id, service, match type, pattern and template: the same labels, whatever {@code updatedMillis}. */
    public boolean sameDefinition(TaskDefinitionRecord other) {
        return other != null && id.equals(other.id) && Objects.equals(service, other.service)
                && matchType == other.matchType && Objects.equals(pattern, other.pattern)
                && Objects.equals(nameTemplate, other.nameTemplate);
    }
}
