package io.cctflow.flink;

import io.cctflow.flink.ingest.RawRecord;
import io.cctflow.schema.TaskDefinition;
import io.cctflow.schema.TaskMatchType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Records of the task definitions topic for tests. */
final class TestTasks {
    static final String TOPIC = "tasks";

    private TestTasks() {
    }

    static TaskDefinition definition(String id, String service, TaskMatchType type, String pattern, String template) {
        return new TaskDefinition(id, service, type, pattern, template, 1_000L);
    }

    static TaskDefinition regex(String id, String service, String pattern, String template) {
        return definition(id, service, TaskMatchType.REGEX, pattern, template);
    }

    /** The definition as its record on the topic: keyed by id, Avro single-object encoded. */
    static RawRecord record(TaskDefinition definition, long offset) {
        return new RawRecord(TOPIC, 0, offset, definition.getId().getBytes(StandardCharsets.UTF_8), encode(definition));
    }

    /** The tombstone that deletes {@code id}. */
    static RawRecord tombstone(String id, long offset) {
        return new RawRecord(TOPIC, 0, offset, id.getBytes(StandardCharsets.UTF_8), null);
    }

    static byte[] encode(TaskDefinition definition) {
        try {
            ByteBuffer b = definition.toByteBuffer();
            byte[] bytes = new byte[b.remaining()];
            b.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
