package io.cctflow.flink.state;

import io.cctflow.flink.cct.CountColumns;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;

/** {@link CountColumns} to Flink's type system: serialized by {@link CountColumnsSerializer}. */
public final class CountColumnsTypeInfo extends TypeInformation<CountColumns> {
    private static final long serialVersionUID = 1L;

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public int getTotalFields() {
        return 1;
    }

    @Override
    public Class<CountColumns> getTypeClass() {
        return CountColumns.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<CountColumns> createSerializer(SerializerConfig config) {
        return CountColumnsSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "CountColumnsTypeInfo";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CountColumnsTypeInfo;
    }

    @Override
    public int hashCode() {
        return CountColumnsTypeInfo.class.hashCode();
    }

    @Override
    public boolean canEqual(Object o) {
        return o instanceof CountColumnsTypeInfo;
    }

    /** Named by {@code @TypeInfo} on {@link CountColumns}. */
    public static final class Factory extends TypeInfoFactory<CountColumns> {
        @Override
        public TypeInformation<CountColumns> createTypeInfo(Type t, Map<String, TypeInformation<?>> generics) {
            return new CountColumnsTypeInfo();
        }
    }
}
