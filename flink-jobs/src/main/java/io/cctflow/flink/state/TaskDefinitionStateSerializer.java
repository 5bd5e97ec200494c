package io.cctflow.flink.state;

import io.cctflow.core.task.MatchType;
import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializes {@link TaskDefinitionState} in the job's broadcast state: id, whether a service is
 * named and the service, match type by name, pattern, name template, update time. Strings are
 * written with {@code writeUTF}, so each is at most 65,535 bytes of modified UTF-8 (task
 * definitions are validated far below that). A savepoint written before this serializer (the
 * definitions as POJOs, state version 6) is refused on restore as incompatible.
 */
public final class TaskDefinitionStateSerializer extends ImmutableTypeSerializer<TaskDefinitionState> {
    private static final long serialVersionUID = 1L;
    public static final TaskDefinitionStateSerializer INSTANCE = new TaskDefinitionStateSerializer();

    @Override
    public TaskDefinitionState createInstance() {
        return new TaskDefinitionState("", null, MatchType.PREFIX, "", "", 0);
    }

    @Override
    public void serialize(TaskDefinitionState d, DataOutputView out) throws IOException {
        out.writeUTF(d.id());
        out.writeBoolean(d.service() != null);
        if (d.service() != null) {
            out.writeUTF(d.service());
        }
        out.writeUTF(d.matchType().name());
        out.writeUTF(d.pattern());
        out.writeUTF(d.nameTemplate());
        out.writeLong(d.updatedMillis());
    }

    @Override
    public TaskDefinitionState deserialize(DataInputView in) throws IOException {
        String id = in.readUTF();
        String service = in.readBoolean() ? in.readUTF() : null;
        String matchType = in.readUTF();
        try {
            return new TaskDefinitionState(id, service, MatchType.valueOf(matchType), in.readUTF(), in.readUTF(),
                    in.readLong());
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt task definition state of '" + id + "': match type " + matchType, e);
        }
    }

    @Override
    public TypeSerializerSnapshot<TaskDefinitionState> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Restores this serializer; the format has one version so far. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<TaskDefinitionState> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
