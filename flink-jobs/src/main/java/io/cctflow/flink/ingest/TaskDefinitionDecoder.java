package io.cctflow.flink.ingest;

import io.cctflow.core.task.MatchType;
import io.cctflow.model.TaskDefinitionRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Decodes and validates one record of the task definitions topic (compacted, keyed by definition
 * id): a value is an Avro single-object {@code TaskDefinition}, a tombstone (null value) deletes the
 * definition with the record's key. Every rejection says what was wrong and what to do.
 */
public final class TaskDefinitionDecoder {
    private TaskDefinitionDecoder() {
    }

    /**
     * What one record asks for.
     *
     * @param definition the new definition, validated; {@code null} to delete {@code id}
     */
    public record Update(String id, TaskDefinitionRecord definition) {
    }

    /** The definition id a record is about (its key), or {@code null} if it has none. */
    public static String id(RawRecord record) {
        return record.key == null ? null : new String(record.key, StandardCharsets.UTF_8);
    }

    public static Update decode(RawRecord record) throws BatchDecoder.InvalidRecordException {
        String id = id(record);
        if (id == null || id.isEmpty()) {
            throw invalid("task definition record without a key; key each record by its definition id, so that"
                    + " compaction keeps the latest and a tombstone can delete it");
        }
        if (record.value == null) {
            return new Update(id, null);
        }
        io.cctflow.schema.TaskDefinition wire;
        try {
            wire = io.cctflow.schema.TaskDefinition.fromByteBuffer(ByteBuffer.wrap(record.value));
        } catch (Exception | StackOverflowError e) {
            throw invalid("task definition '" + id + "' rejected: not an Avro single-object TaskDefinition: " + e);
        }
        if (!id.equals(wire.getId())) {
            throw invalid("task definition '" + wire.getId() + "' rejected: its record key is '" + id
                    + "'; key each record by its definition id");
        }
        if (wire.getService() != null && wire.getService().isBlank()) {
            throw invalid("task definition '" + id + "' rejected: service is empty; give a service name, or null"
                    + " for every service");
        }
        TaskDefinitionRecord definition = new TaskDefinitionRecord(id, wire.getService(),
                MatchType.valueOf(wire.getMatchType().name()), wire.getPattern(), wire.getNameTemplate(),
                wire.getUpdatedMillis());
        try {
            definition.toDefinition();
        } catch (IllegalArgumentException e) {
            throw invalid("task definition rejected: " + e.getMessage());
        }
        return new Update(id, definition);
    }

    private static BatchDecoder.InvalidRecordException invalid(String message) {
        return new BatchDecoder.InvalidRecordException(message, null);
    }
}
