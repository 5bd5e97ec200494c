package io.cctflow.flink.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.task.MatchType;
import io.cctflow.model.TaskDefinitionRecord;
import java.io.IOException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@link TaskDefinitionStateSerializer} on random definitions: what it writes reads back equal
 * (with and without a service), and the state of savepoints of version 6 (the record as a POJO)
 * is refused as incompatible rather than misread.
 */
class TaskDefinitionStateSerializerProperties {

    @Property(tries = 200)
    void readsBackWhatItWrote(@ForAll String id, @ForAll String service, @ForAll boolean everyService,
            @ForAll MatchType matchType, @ForAll String pattern, @ForAll String template, @ForAll long updated)
            throws IOException {
        TaskDefinitionState d = new TaskDefinitionState(id, everyService ? null : service, matchType, pattern,
                template, updated);
        DataOutputSerializer out = new DataOutputSerializer(64);
        TaskDefinitionStateSerializer.INSTANCE.serialize(d, out);
        TaskDefinitionState back = TaskDefinitionStateSerializer.INSTANCE.deserialize(
                new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(back).isEqualTo(d);
        assertThat(back.toRecord()).isEqualTo(d.toRecord());
        assertThat(TaskDefinitionState.of(d.toRecord())).isEqualTo(d);
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void theStateOfVersionSixIsRefused() {
        TypeSerializerSnapshot old = TypeInformation.of(TaskDefinitionRecord.class)
                .createSerializer(new SerializerConfigImpl()).snapshotConfiguration();
        assertThat(new TaskDefinitionStateSerializer.Snapshot().resolveSchemaCompatibility(old).isIncompatible())
                .isTrue();
    }
}
