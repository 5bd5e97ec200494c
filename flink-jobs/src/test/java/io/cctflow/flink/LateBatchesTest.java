package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.flink.cct.BatchTrees;
import io.cctflow.flink.ingest.DeadLetterSerializer;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.WindowCounts;
import io.cctflow.schema.SampleBatch;
import io.cctflow.servers.TestServers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
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
 * Event time on a running job (MiniCluster, real broker and Neo4j): a batch behind the watermark
 * but within the allowed lateness refreshes its closed window with the exact sum; one beyond it is
 * dead-lettered with the reason and leaves the stored window as it was. Each step waits for an
 * observable effect (a window in Neo4j, a record in the DLQ), never for a fixed time.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LateBatchesTest {
    private static final ExecutionId EXEC = TestBatches.execution("late-1");
    private static final String TOPIC = "late-test.samples";
    private static final String DLQ = "late-test.dlq";

    @Test
    void lateBatchesUpdateTheirWindowWithinTheAllowedLatenessAndAreDeadLetteredAfterIt() throws Exception {
        TestServers servers = TestServers.get();
        servers.createTopic(TOPIC, 1);
        servers.createTopic(DLQ, 1);
        servers.cleanNeo4j();
        SamplesJobConfig config = SamplesJobConfig.defaults()
                .with(Map.of(SamplesJobConfig.STATE_BACKEND, "hashmap")).with(Map.of(
                SamplesJobConfig.BOOTSTRAP_SERVERS, servers.kafkaBootstrapServers(),
                SamplesJobConfig.SAMPLES_TOPIC, TOPIC,
                SamplesJobConfig.DEAD_LETTER_TOPIC, DLQ,
                SamplesJobConfig.GROUP_ID, "late-test-" + System.nanoTime(),
                SamplesJobConfig.NEO4J_URI, servers.neo4jUri(),
                SamplesJobConfig.NEO4J_USER, servers.neo4jUser(),
                SamplesJobConfig.NEO4J_PASSWORD, servers.neo4jPassword(),
                SamplesJobConfig.OUT_OF_ORDERNESS, "0s",
                SamplesJobConfig.ALLOWED_LATENESS, "3m",
                SamplesJobConfig.EARLY_FIRING, "1s"));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(
                Configuration.fromMap(Map.of("restart-strategy.type", "none")));
        Random random = new Random(7);
        SampleBatch a = TestBatches.random(EXEC, 0, 400_000, random, 30, 5);
        SampleBatch b = TestBatches.random(EXEC, 1, 500_000, random, 30, 5);
        SampleBatch lateWithin = TestBatches.random(EXEC, 2, 410_000, random, 30, 5);
        SampleBatch d = TestBatches.random(EXEC, 3, 700_000, random, 30, 5);
        SampleBatch lateBeyond = TestBatches.random(EXEC, 4, 405_000, random, 30, 5);

        JobClient job = SamplesJob.start(env, config);
        Properties p = new Properties();
        p.put("bootstrap.servers", servers.kafkaBootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                        new ByteArraySerializer());
                Driver driver = servers.newDriver()) {
            WindowReader reader = new WindowReader(driver, "");
            send(producer, a, b);
            // b's window is written, so the watermark (emitted every 200 ms) has passed a's window
            awaitWindow(reader, 480_000, TreeCounts.of(tree(b)));
            awaitWindow(reader, 360_000, TreeCounts.of(tree(a)));

            send(producer, lateWithin); // behind the watermark, within the 3 min lateness (until 600,000)
            awaitWindow(reader, 360_000, TreeCounts.of(tree(a, lateWithin)));

            send(producer, d); // watermark past 600,000: a's window is gone for good
            awaitWindow(reader, 660_000, TreeCounts.of(tree(d)));
            send(producer, lateBeyond);
            ConsumerRecord<byte[], byte[]> dead = awaitDeadLetter(servers);
            String reason = new String(dead.headers().lastHeader(DeadLetterSerializer.REASON_HEADER).value(),
                    StandardCharsets.UTF_8);
            assertThat(reason).startsWith("late batch: ").contains("window [360000, 420000)")
                    .contains("allowed lateness of 180000 ms");
            assertThat(new String(dead.headers().lastHeader(DeadLetterSerializer.ORIGIN_HEADER).value(),
                    StandardCharsets.UTF_8)).isEqualTo(TOPIC + "/0@4");
            assertThat(new String(dead.key(), StandardCharsets.UTF_8)).isEqualTo(EXEC.key());
            // the closed window keeps its numbers
            assertThat(window(reader, 360_000)).contains(TreeCounts.of(tree(a, lateWithin)));
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, SampleBatch... batches) throws Exception {
        for (SampleBatch batch : batches) {
            var r = TestBatches.record(batch, 0);
            producer.send(new ProducerRecord<>(TOPIC, r.key, r.value)).get();
        }
    }

    private static Cct tree(SampleBatch... batches) {
        Cct tree = new Cct();
        for (SampleBatch batch : batches) {
            BatchTrees.mergeComplete(batch, tree);
        }
        return tree;
    }

    private static Optional<TreeCounts> window(WindowReader reader, long start) {
        return reader.windows(List.of(EXEC.key()), start, start + 1).stream()
                .filter(w -> w.windowStartMillis() == start).map(WindowCounts::counts).findFirst();
    }

    private static void awaitWindow(WindowReader reader, long start, TreeCounts expected) {
        await("window " + start).atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                .until(() -> window(reader, start).filter(expected::equals).isPresent());
    }

    private static ConsumerRecord<byte[], byte[]> awaitDeadLetter(TestServers servers) {
        Properties p = new Properties();
        p.put("bootstrap.servers", servers.kafkaBootstrapServers());
        p.put("group.id", "late-test-dlq-" + System.nanoTime());
        p.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(DLQ));
            List<ConsumerRecord<byte[], byte[]>> got = new ArrayList<>();
            await("dead letter").atMost(Duration.ofMinutes(2))
                    .until(() -> {
                        consumer.poll(Duration.ofMillis(500)).forEach(got::add);
                        return !got.isEmpty();
                    });
            assertThat(got).hasSize(1);
            return got.get(0);
        }
    }
}
