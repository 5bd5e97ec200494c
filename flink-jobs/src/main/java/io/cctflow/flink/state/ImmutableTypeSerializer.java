package io.cctflow.flink.state;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Base of the job's serializers of values nobody modifies once built: a copy is the value itself,
 * the length varies, and a deserialization never reuses an instance. Subclasses write and read.
 */
abstract class ImmutableTypeSerializer<T> extends TypeSerializerSingleton<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public final boolean isImmutableType() {
        return true;
    }

    @Override
    public final T copy(T from) {
        return from;
    }

    @Override
    public final T copy(T from, T reuse) {
        return from;
    }

    @Override
    public final int getLength() {
        return -1;
    }

    @Override
    public final T deserialize(T reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public final void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }
}
