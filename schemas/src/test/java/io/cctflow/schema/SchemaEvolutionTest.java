package io.cctflow.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.message.MissingSchemaException;
import org.junit.jupiter.api.Test;

class SchemaEvolutionTest {

    /**
     * The writer of an older agent: SampleBatch without its optional {@code stats} field (and
     * without the fields added after it, {@link SampleBatchHistory#ADDED_FIELDS}).
     */
    private static Schema olderSampleBatch() {
        Schema current = SampleBatchHistory.olderSchemas().get(SampleBatchHistory.ADDED_FIELDS.size() - 1);
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : current.getFields()) {
            if (!f.name().equals("stats")) {
                fields.add(new Schema.Field(f, f.schema()));
            }
        }
        return Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false, fields);
    }

    /**
     * The writer and reader of an older agent: AgentStats with only its first six counters (and no
     * field added later).
     */
    private static Schema sampleBatchWithOlderStats() {
        Schema stats = AgentStats.getClassSchema();
        List<Schema.Field> statsFields = new ArrayList<>();
        for (Schema.Field f : stats.getFields().subList(0, OLD_STATS_FIELDS.size())) {
            statsFields.add(new Schema.Field(f, f.schema()));
        }
        Schema olderStats = Schema.createRecord(stats.getName(), stats.getDoc(), stats.getNamespace(), false,
                statsFields);
        Schema current = SampleBatchHistory.olderSchemas().get(SampleBatchHistory.ADDED_FIELDS.size() - 1);
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : current.getFields()) {
            fields.add(f.name().equals("stats")
                    ? new Schema.Field("stats", Schema.createUnion(Schema.create(Schema.Type.NULL), olderStats),
                            f.doc(), JsonProperties.NULL_VALUE)
                    : new Schema.Field(f, f.schema()));
        }
        return Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false, fields);
    }

    private static final List<String> OLD_STATS_FIELDS = List.of("samplesSeen", "samplesTruncated",
            "samplesDropped", "batchesSent", "batchesDropped", "bytesSent");

    private static GenericRecord olderBatch(Schema schema) {
        Schema instanceSchema = schema.getField("instance").schema();
        GenericRecord instance = new GenericData.Record(instanceSchema);
        instance.put("service", "checkout");
        instance.put("version", "v41");
        instance.put("instanceId", "pod-1");
        instance.put("host", "node-a");
        instance.put("pid", 7L);
        instance.put("startTimeMillis", 1_000L);
        instance.put("labels", Map.of("zone", "a"));
        Schema methodSchema = schema.getField("methods").schema().getElementType();
        GenericRecord method = new GenericData.Record(methodSchema);
        method.put("className", "com.example.Cart");
        method.put("methodName", "total");
        method.put("descriptor", "()J");
        Schema stackSchema = schema.getField("stacks").schema().getElementType();
        GenericRecord stack = new GenericData.Record(stackSchema);
        stack.put("frames", List.of(0));
        stack.put("lines", List.of(0));
        stack.put("thread", "pool-#-thread-#");
        stack.put("truncated", false);
        stack.put("count", 5L);
        GenericRecord batch = new GenericData.Record(schema);
        batch.put("instance", instance);
        batch.put("windowStartMillis", 10_000L);
        batch.put("windowEndMillis", 20_000L);
        batch.put("sequence", 3L);
        batch.put("samplingPeriodMillis", 20);
        batch.put("methods", List.of(method));
        batch.put("stacks", List.of(stack));
        return batch;
    }

    @Test
    void historyDecodesBatchesOfAgentsThatSentNoRawThreadNames() throws Exception {
        Schema older = SampleBatchHistory.olderSchemas().get(0);
        assertThat(older.getField("rawThreadNames")).as("the older agent's schema").isNull();
        assertThat(SchemaNormalization.parsingFingerprint64(older))
                .isNotEqualTo(SchemaNormalization.parsingFingerprint64(SampleBatch.getClassSchema()));
        ByteBuffer bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), older).encode(olderBatch(older));

        SampleBatch decoded = SampleBatchHistory.decoder().decode(bytes);

        assertThat(decoded.getInstance().getService()).isEqualTo("checkout");
        assertThat(decoded.getStacks()).singleElement().satisfies(s -> assertThat(s.getThread()).isEqualTo("pool-#-thread-#"));
        assertThat(decoded.getRawThreadNames()).isEmpty(); // the added field's default
        // and batches of this build's schema, with raw names
        SampleBatch current = SampleBatch.newBuilder(decoded).setRawThreadNames(
                List.of(new PoolThreads("pool-#-thread-#", List.of("pool-1-thread-1", "pool-1-thread-2")))).build();
        assertThat(SampleBatchHistory.decoder().decode(current.toByteBuffer())).isEqualTo(current);
    }

    @Test
    void anOldReaderSkipsRawThreadNames() throws Exception {
        SampleBatch batch = SampleBatch.newBuilder()
                .setInstance(new InstanceInfo("s", "v", "i", "h", 1L, 2L, Map.of()))
                .setWindowStartMillis(1).setWindowEndMillis(2).setSequence(9).setSamplingPeriodMillis(20)
                .setMethods(List.of(new MethodRef("A", "b", "()V")))
                .setStacks(List.of(new Stack(List.of(0), List.of(0), "pool-#-thread-#", false, 1L)))
                .setRawThreadNames(List.of(new PoolThreads("pool-#-thread-#", List.of("pool-1-thread-1"))))
                .build();
        BinaryMessageDecoder<GenericRecord> oldReader =
                new BinaryMessageDecoder<>(GenericData.get(), SampleBatchHistory.olderSchemas().get(0));
        oldReader.addSchema(SampleBatch.getClassSchema());

        GenericRecord decoded = oldReader.decode(batch.toByteBuffer());

        assertThat(decoded.get("sequence")).isEqualTo(9L);
        assertThat(decoded.getSchema().getField("rawThreadNames")).isNull();
    }

    @Test
    void newReaderDecodesOldWriterAfterAnOptionalFieldWasAdded() throws Exception {
        Schema older = olderSampleBatch();
        assertThat(SchemaNormalization.parsingFingerprint64(older))
                .as("the older schema must really differ, or this test proves nothing")
                .isNotEqualTo(SchemaNormalization.parsingFingerprint64(SampleBatch.getClassSchema()));
        ByteBuffer bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), older).encode(olderBatch(older));

        // a fresh decoder: SampleBatch.getDecoder() is shared, and teaching it a schema would leak into other tests
        BinaryMessageDecoder<SampleBatch> decoder = SampleBatch.createDecoder(null);
        decoder.addSchema(older); // readers learn old writer schemas from the history they ship with
        SampleBatch decoded = decoder.decode(bytes);

        assertThat(decoded.getInstance().getService()).isEqualTo("checkout");
        assertThat(decoded.getStacks()).singleElement().satisfies(s -> assertThat(s.getCount()).isEqualTo(5));
        assertThat(decoded.getStats()).isNull(); // the added field takes its default
    }

    @Test
    void newReaderGivesCountersAnOldAgentDidNotWriteTheirDefaultOfZero() throws Exception {
        Schema older = sampleBatchWithOlderStats();
        assertThat(SchemaNormalization.parsingFingerprint64(older))
                .as("the older schema must really differ, or this test proves nothing")
                .isNotEqualTo(SchemaNormalization.parsingFingerprint64(SampleBatch.getClassSchema()));
        GenericRecord batch = olderBatch(older);
        Schema statsSchema = older.getField("stats").schema().getTypes().get(1);
        GenericRecord stats = new GenericData.Record(statsSchema);
        for (int i = 0; i < OLD_STATS_FIELDS.size(); i++) {
            stats.put(OLD_STATS_FIELDS.get(i), 10L + i);
        }
        batch.put("stats", stats);
        ByteBuffer bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), older).encode(batch);

        BinaryMessageDecoder<SampleBatch> decoder = SampleBatch.createDecoder(null);
        decoder.addSchema(older);
        AgentStats decoded = decoder.decode(bytes).getStats();

        assertThat(decoded).isEqualTo(AgentStats.newBuilder().setSamplesSeen(10).setSamplesTruncated(11)
                .setSamplesDropped(12).setBatchesSent(13).setBatchesDropped(14).setBytesSent(15)
                .setBytesDropped(0).setSendLatencyMillisSum(0).setSendLatencyMillisMax(0)
                .setBatchesQueued(0).setBytesQueued(0).setStackDepth(0).setTruncationWarning("").build());
    }

    @Test
    void oldReaderSkipsCountersItDoesNotKnow() throws Exception {
        SampleBatch batch = SampleBatch.newBuilder()
                .setInstance(new InstanceInfo("s", "v", "i", "h", 1L, 2L, Map.of()))
                .setWindowStartMillis(1).setWindowEndMillis(2).setSequence(9).setSamplingPeriodMillis(20)
                .setMethods(List.of(new MethodRef("A", "b", "()V")))
                .setStacks(List.of(new Stack(List.of(0), List.of(0), "main", false, 1L)))
                .setStats(new AgentStats(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 64, "warning"))
                .build();
        Schema older = sampleBatchWithOlderStats();
        BinaryMessageDecoder<GenericRecord> oldReader = new BinaryMessageDecoder<>(GenericData.get(), older);
        oldReader.addSchema(SampleBatch.getClassSchema()); // the writer's schema, from the registry or history

        GenericRecord decoded = oldReader.decode(batch.toByteBuffer());

        assertThat(decoded.get("sequence")).isEqualTo(9L);
        GenericRecord stats = (GenericRecord) decoded.get("stats");
        assertThat(stats.get("bytesSent")).isEqualTo(6L);
        assertThat(stats.getSchema().getFields()).extracting(Schema.Field::name)
                .containsExactlyElementsOf(OLD_STATS_FIELDS);
    }

    @Test
    void everyMessageCarriesTheSchemaFingerprint() throws Exception {
        Schema older = olderSampleBatch();
        ByteBuffer bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), older).encode(olderBatch(older));
        // single-object encoding: marker C3 01, then the 8-byte fingerprint of the writer schema
        assertThat(bytes.get(0)).isEqualTo((byte) 0xC3);
        assertThat(bytes.get(1)).isEqualTo((byte) 0x01);
        // a reader that does not know the writer's schema says so instead of misreading the bytes
        assertThatThrownBy(() -> SampleBatch.createDecoder(null).decode(bytes.duplicate()))
                .isInstanceOf(MissingSchemaException.class);
    }

    @Test
    void currentSchemaRoundTrips() throws Exception {
        SampleBatch batch = SampleBatch.newBuilder()
                .setInstance(new InstanceInfo("s", "v", "i", "h", 1L, 2L, Map.of()))
                .setWindowStartMillis(1).setWindowEndMillis(2).setSequence(0).setSamplingPeriodMillis(20)
                .setMethods(List.of(new MethodRef("A", "b", "()V")))
                .setStacks(List.of(new Stack(List.of(0), List.of(0), "main", false, 1L)))
                .setStats(new AgentStats(1L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 256, ""))
                .build();
        assertThat(SampleBatch.fromByteBuffer(batch.toByteBuffer())).isEqualTo(batch);
        TaskDefinition task = new TaskDefinition("t1", null, TaskMatchType.REGEX, "com\\.example\\.(?<svc>\\w+)\\..*",
                "service-${svc}", 5L);
        assertThat(TaskDefinition.fromByteBuffer(task.toByteBuffer())).isEqualTo(task);
        CodeManifest manifest = CodeManifest.newBuilder().setService("s").setVersion("v").setInstanceId("i")
                .setSequence(0L).setMethods(List.of(new MethodFingerprint("A", "b", "()V", 42L))).setClasses(1)
                .setStats(new ManifestStats(1L, 1L, 0L, 0L, 100L, 5_000L, 0L))
                .build();
        assertThat(CodeManifest.fromByteBuffer(manifest.toByteBuffer())).isEqualTo(manifest);
    }

    @Test
    void newReaderDecodesACodeManifestWrittenBeforeClassesAndStatsWereAdded() throws Exception {
        Schema current = CodeManifest.getClassSchema();
        List<Schema.Field> fields = new ArrayList<>();
        for (Schema.Field f : current.getFields()) {
            if (!f.name().equals("classes") && !f.name().equals("stats")) {
                fields.add(new Schema.Field(f, f.schema()));
            }
        }
        Schema older = Schema.createRecord(current.getName(), current.getDoc(), current.getNamespace(), false, fields);
        GenericRecord method = new GenericData.Record(older.getField("methods").schema().getElementType());
        method.put("className", "com.example.Cart");
        method.put("methodName", "total");
        method.put("descriptor", "()J");
        method.put("fingerprint", 42L);
        GenericRecord manifest = new GenericData.Record(older);
        manifest.put("service", "checkout");
        manifest.put("version", "v41");
        manifest.put("instanceId", "pod-1");
        manifest.put("sequence", 0L);
        manifest.put("methods", List.of(method));
        ByteBuffer bytes = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), older).encode(manifest);

        BinaryMessageDecoder<CodeManifest> decoder = CodeManifest.createDecoder(null);
        decoder.addSchema(older);
        CodeManifest decoded = decoder.decode(bytes);

        assertThat(decoded.getMethods()).singleElement().satisfies(m -> assertThat(m.getFingerprint()).isEqualTo(42L));
        assertThat(decoded.getClasses()).isZero();
        assertThat(decoded.getStats()).isNull();
    }
}
