package io.cctflow.flink.state;

import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.cct.CountColumns;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@link CountColumnsSerializer} against the columns themselves on random data: what it writes reads
 * back equal, array by array, across its bulk chunks (arrays of 0 to 3,000 values, around the
 * chunk of 1,024), with null arrays, and through the POJO serializers of the records that carry
 * the columns; and a corrupt length is an error.
 */
class CountColumnsSerializerProperties {

    @Property(tries = 200)
    void readsBackWhatItWrote(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3000) int rows) throws IOException {
        CountColumns c = random(new Random(seed), rows);
        CountColumns back = roundTrip(CountColumnsSerializer.INSTANCE, c);
        assertSameColumns(back, c);
    }

    @Property(tries = 50)
    void batchesCarryTheirColumnsThroughFlinksPojoSerializer(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 2100) int rows) throws IOException {
        Random random = new Random(seed);
        assertThat(TypeInformation.of(BatchCounts.class)).isInstanceOf(PojoTypeInfo.class);
        BatchCounts batch = new BatchCounts("exec", random.nextLong(), random(random, rows / 2), null);
        batch.contributionId = random.nextLong();
        batch.truncatedPending = random.nextLong();
        BatchCounts batchBack = roundTrip(TypeInformation.of(BatchCounts.class)
                .createSerializer(new SerializerConfigImpl()), batch);
        assertSameColumns(batchBack.counts, batch.counts);
        assertThat(batchBack.eventTimeMillis).isEqualTo(batch.eventTimeMillis);
        assertThat(batchBack.contributionId).isEqualTo(batch.contributionId);
        assertThat(batchBack.truncatedPending).isEqualTo(batch.truncatedPending);
    }

    @Test
    void copyIsTheSameColumnsSinceNobodyModifiesThem() {
        CountColumns c = random(new Random(1), 10);
        assertThat(CountColumnsSerializer.INSTANCE.copy(c)).isSameAs(c);
        assertThat(CountColumnsSerializer.INSTANCE.copy(c, new CountColumns())).isSameAs(c);
    }

    @Test
    void nullArraysStayNull() throws IOException {
        CountColumns c = new CountColumns();
        c.self = null;
        c.threadDictNames = null;
        c.rawThreadNames = null;
        CountColumns back = roundTrip(CountColumnsSerializer.INSTANCE, c);
        assertThat(back.rawThreadNames).isNull();
        assertThat(back.self).isNull();
        assertThat(back.threadDictNames).isNull();
        assertThat(back.nodeIds).isEmpty();
    }

    @Test
    void aNegativeLengthIsACorruptRecord() {
        DataInputDeserializer in = new DataInputDeserializer(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xf0});
        assertThatThrownBy(() -> CountColumnsSerializer.INSTANCE.deserialize(in))
                .isInstanceOf(IOException.class).hasMessageContaining("array length -16");
    }

    private static <T> T roundTrip(TypeSerializer<T> serializer, T value) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(value, out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        T back = serializer.deserialize(in);
        assertThat(in.available()).as("bytes left after reading").isZero();
        return back;
    }

    private static void assertSameColumns(CountColumns actual, CountColumns expected) {
        assertThat(actual.nodeIds).containsExactly(expected.nodeIds);
        assertThat(actual.self).containsExactly(expected.self);
        assertThat(actual.total).containsExactly(expected.total);
        assertThat(actual.threadNodeIds).containsExactly(expected.threadNodeIds);
        assertThat(actual.threadIds).containsExactly(expected.threadIds);
        assertThat(actual.threadSelf).containsExactly(expected.threadSelf);
        assertThat(actual.threadDictIds).containsExactly(expected.threadDictIds);
        assertThat(actual.threadDictNames).containsExactly(expected.threadDictNames);
        assertThat(actual.methodIds).containsExactly(expected.methodIds);
        assertThat(actual.methodSamples).containsExactly(expected.methodSamples);
        assertThat(actual.methodSelf).containsExactly(expected.methodSelf);
        assertThat(actual.rawThreadNames).containsExactly(expected.rawThreadNames);
    }

    /** Columns of arbitrary values (the serializer does not care about their shape), of varied lengths. */
    private static CountColumns random(Random random, int rows) {
        CountColumns c = new CountColumns();
        c.nodeIds = longs(random, rows);
        c.self = longs(random, rows);
        c.total = longs(random, rows);
        int entries = random.nextInt(rows + 1);
        c.threadNodeIds = longs(random, entries);
        c.threadIds = longs(random, entries);
        c.threadSelf = longs(random, entries);
        int threads = random.nextInt(4);
        c.threadDictIds = longs(random, threads);
        c.threadDictNames = new String[threads];
        for (int i = 0; i < threads; i++) {
            c.threadDictNames[i] = "worker-" + random.nextInt() + (i == 0 ? " é ✓" : "");
        }
        int methods = random.nextInt(rows / 2 + 1);
        c.methodIds = longs(random, methods);
        c.methodSamples = longs(random, methods);
        c.methodSelf = longs(random, methods);
        c.rawThreadNames = new String[random.nextInt(5)];
        for (int i = 0; i < c.rawThreadNames.length; i++) {
            c.rawThreadNames[i] = "worker-" + random.nextInt(100) + (i == 0 ? " é ✓" : "");
        }
        return c;
    }

    private static long[] longs(Random random, int n) {
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = random.nextInt(4) == 0 ? random.nextInt(100) : random.nextLong();
        }
        return values;
    }
}
