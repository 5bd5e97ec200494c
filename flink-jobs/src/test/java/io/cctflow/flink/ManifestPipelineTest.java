package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cctflow.core.ExecutionId;
import io.cctflow.core.MethodId;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.flink.ingest.DeadLetterSerializer;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.schema.CodeManifest;
import io.cctflow.schema.MethodFingerprint;
import io.cctflow.servers.TestServers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.neo4j.driver.Driver;

/**
 * Code manifests through the samples job (SamplesJob.start, production sources and sinks) on a
 * MiniCluster with a real broker and a real Neo4j: stored per deployment, idempotently across
 * instances, malformed records dead-lettered.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ManifestPipelineTest {
    private static final String SAMPLES = "manifest-job.samples";
    private static final String MANIFESTS = "manifest-job.manifests";
    private static final String DLQ = "manifest-job.dlq";

    private static CodeManifest manifest(String version, String instance, long sequence, MethodFingerprint... methods) {
        return CodeManifest.newBuilder().setService("shop").setVersion(version).setInstanceId(instance)
                .setSequence(sequence).setMethods(List.of(methods)).setClasses(1).build();
    }

    private static MethodFingerprint method(String className, String name, String descriptor, long fingerprint) {
        return new MethodFingerprint(className, name, descriptor, fingerprint);
    }

    @Test
    void storesEachDeploymentsFingerprintsAndDeadLettersMalformedManifests() throws Exception {
        TestServers servers = TestServers.get();
        servers.createTopic(SAMPLES, 1);
        servers.createTopic(MANIFESTS, 2);
        servers.createTopic(DLQ, 1);
        servers.cleanNeo4j();

        List<CodeManifest> manifests = List.of(
                manifest("v1", "a", 0, method("com.acme.Cart", "<init>", "()V", 1), method("com.acme.Cart", "total", "()J", 2),
                        method("com.acme.Old", "gone", "()V", 3)),
                // a second instance of v1 publishes the same class again
                manifest("v1", "b", 0, method("com.acme.Cart", "<init>", "()V", 1), method("com.acme.Cart", "total", "()J", 2)),
                manifest("v2", "c", 0, method("com.acme.Cart", "<init>", "()V", 1), method("com.acme.Cart", "total", "()J", 20)),
                manifest("v2", "c", 1, method("com.acme.New", "born", "(I)I", 4)));
        Properties p = new Properties();
        p.put("bootstrap.servers", servers.kafkaBootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (CodeManifest m : manifests) {
                ByteBuffer value = m.toByteBuffer();
                byte[] bytes = new byte[value.remaining()];
                value.get(bytes);
                producer.send(new ProducerRecord<>(MANIFESTS, key(m), bytes)).get();
            }
            // garbage, and a manifest without a service
            producer.send(new ProducerRecord<>(MANIFESTS, 0, "bad".getBytes(StandardCharsets.UTF_8), new byte[] {1, 2})).get();
            ByteBuffer blank = CodeManifest.newBuilder(manifest("v1", "a", 9, method("X", "y", "()V", 0))).setService(" ").build()
                    .toByteBuffer();
            byte[] blankBytes = new byte[blank.remaining()];
            blank.get(blankBytes);
            producer.send(new ProducerRecord<>(MANIFESTS, 1, "blank".getBytes(StandardCharsets.UTF_8), blankBytes)).get();
        }

        SamplesJobConfig config = SamplesJobConfig.defaults().with(Map.of(
                SamplesJobConfig.STATE_BACKEND, "hashmap",
                SamplesJobConfig.BOOTSTRAP_SERVERS, servers.kafkaBootstrapServers(),
                SamplesJobConfig.SAMPLES_TOPIC, SAMPLES,
                SamplesJobConfig.MANIFESTS_TOPIC, MANIFESTS,
                SamplesJobConfig.DEAD_LETTER_TOPIC, DLQ,
                SamplesJobConfig.GROUP_ID, "manifest-job-" + System.nanoTime(),
                SamplesJobConfig.NEO4J_URI, servers.neo4jUri(),
                SamplesJobConfig.BOUNDED, "true"));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(
                Configuration.fromMap(Map.of("restart-strategy.type", "none")));
        SamplesJob.start(env, config).getJobExecutionResult().get(4, TimeUnit.MINUTES);

        try (Driver driver = servers.newDriver()) {
            CatalogueReader reader = new CatalogueReader(driver, "");
            Map<String, Long> v1 = reader.methodFingerprints("shop", "v1");
            Map<String, Long> v2 = reader.methodFingerprints("shop", "v2");
            assertThat(v1).isEqualTo(Map.of("com.acme.Cart.<init>()V", 1L, "com.acme.Cart.total()J", 2L,
                    "com.acme.Old.gone()V", 3L));
            assertThat(v2).isEqualTo(Map.of("com.acme.Cart.<init>()V", 1L, "com.acme.Cart.total()J", 20L,
                    "com.acme.New.born(I)I", 4L));
            ChangeList changes = ChangeList.between(v1, v2, MethodId::ofSignature);
            assertThat(changes.added()).containsExactly(MethodId.ofSignature("com.acme.New.born(I)I"));
            assertThat(changes.deleted()).containsExactly(MethodId.ofSignature("com.acme.Old.gone()V"));
            assertThat(changes.modified()).containsExactly(MethodId.ofSignature("com.acme.Cart.total()J"));
        }

        List<ConsumerRecord<byte[], byte[]>> dead = deadLetters(servers, 2);
        assertThat(dead).extracting(r -> new String(r.key(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("bad", "blank");
        assertThat(dead).extracting(r -> new String(r.headers().lastHeader(DeadLetterSerializer.REASON_HEADER).value(),
                StandardCharsets.UTF_8)).anySatisfy(reason -> assertThat(reason)
                        .contains("not an Avro single-object CodeManifest", MANIFESTS + "/0@"))
                .anySatisfy(reason -> assertThat(reason).contains("must not be blank", MANIFESTS + "/1@"));
    }

    private static byte[] key(CodeManifest m) {
        return ExecutionId.deploymentKey(m.getService(), m.getVersion()).getBytes(StandardCharsets.UTF_8);
    }

    private static List<ConsumerRecord<byte[], byte[]>> deadLetters(TestServers servers, int expected) {
        Properties p = new Properties();
        p.put("bootstrap.servers", servers.kafkaBootstrapServers());
        p.put("group.id", "manifest-job-dlq-" + System.nanoTime());
        p.put("auto.offset.reset", "earliest");
        List<ConsumerRecord<byte[], byte[]>> got = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(DLQ));
            await("dead letters").atMost(Duration.ofMinutes(2)).until(() -> {
                consumer.poll(Duration.ofMillis(500)).forEach(got::add);
                return got.size() >= expected;
            });
        }
        return got;
    }
}
