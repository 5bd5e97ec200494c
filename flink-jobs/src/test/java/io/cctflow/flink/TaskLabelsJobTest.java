package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.flink.cct.BatchTrees;
import io.cctflow.flink.ingest.DeadLetterSerializer;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.model.TaskDefinitionRecord;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.TaskDefinition;
import io.cctflow.servers.TestServers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
 * Task definitions on a running job (MiniCluster, real broker and Neo4j): a definition published
 * after more than 1,000 nodes are stored labels those old nodes in Neo4j; an invalid one is
 * dead-lettered and the job goes on; a change and a delete are reflected. Every expected label set
 * is cct-core's labelling from scratch of the whole tree; every wait is for the stored result.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class TaskLabelsJobTest {
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final String SAMPLES = "tasks-test.samples";
    private static final String TASKS = "tasks-test.tasks";
    private static final String DLQ = "tasks-test.dlq";
    private static final int ALPHABET = 14;

    @Test
    void definitionAddedAfterTheNodesLabelsThemAndChangeAndDeleteAreReflected() throws Exception {
        TestServers servers = TestServers.get();
        servers.createTopic(SAMPLES, 2);
        servers.createTopic(DLQ, 1);
        servers.cleanNeo4j();
        SamplesJobConfig config = SamplesJobConfig.defaults()
                .with(Map.of(SamplesJobConfig.STATE_BACKEND, "hashmap", SamplesJobConfig.TASKS_TOPIC, TASKS))
                .with(Map.of(
                SamplesJobConfig.BOOTSTRAP_SERVERS, servers.kafkaBootstrapServers(),
                SamplesJobConfig.SAMPLES_TOPIC, SAMPLES,
                SamplesJobConfig.DEAD_LETTER_TOPIC, DLQ,
                SamplesJobConfig.GROUP_ID, "tasks-test-" + System.nanoTime(),
                SamplesJobConfig.NEO4J_URI, servers.neo4jUri(),
                SamplesJobConfig.NEO4J_USER, servers.neo4jUser(),
                SamplesJobConfig.NEO4J_PASSWORD, servers.neo4jPassword(),
                SamplesJobConfig.PARALLELISM, "2"));

        // two instances of one service: deep random stacks, well over 1,000 distinct nodes
        Random random = new Random(5);
        List<SampleBatch> batches = new ArrayList<>();
        Cct tree = new Cct();
        for (int seq = 0; seq < 20; seq++) {
            for (String instance : List.of("t-1", "t-2")) {
                SampleBatch b = TestBatches.random(TestBatches.execution(instance), seq, 60_000L + seq * 10_000L,
                        random, 60, ALPHABET);
                batches.add(b);
                BatchTrees.mergeComplete(b, tree);
            }
        }
        assertThat(tree.size() - 1).as("distinct nodes").isGreaterThan(1_000);
        List<Long> nodeIds = new ArrayList<>();
        for (int n = 1; n < tree.size(); n++) {
            nodeIds.add(tree.id(n));
        }

        JobClient job = SamplesJob.start(StreamExecutionEnvironment.createLocalEnvironment(
                Configuration.fromMap(Map.of("restart-strategy.type", "none"))), config);
        try (KafkaProducer<byte[], byte[]> producer = producer(servers); Driver driver = servers.newDriver()) {
            CatalogueReader catalogue = new CatalogueReader(driver, "");
            TopologyReader reader = new TopologyReader(driver, "");
            for (SampleBatch b : batches) {
                var r = TestBatches.record(b, 0);
                producer.send(new ProducerRecord<>(SAMPLES, r.key, r.value));
            }
            producer.flush();
            await("every node stored").atMost(WAIT).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> reader.nodes(nodeIds).size() == nodeIds.size());
            assertThat(reader.nodeTasks("svc", nodeIds)).isEmpty();

            // added after the nodes exist: the old nodes get labels
            TaskDefinition added = TestTasks.regex("hot", "svc", "^T\\.(?<m>m[3-5])$", "hot-${m}");
            long sent = System.nanoTime();
            publish(producer, added);
            Map<Long, List<String>> expected = ExpectedLabels.of(tree, "svc", List.of(added), ALPHABET);
            assertThat(expected.size()).as("labelled nodes").isGreaterThan(500);
            awaitLabels(reader, nodeIds, expected);
            System.out.printf("task definition over %d existing nodes (%d labelled) queryable in Neo4j after %d ms"
                    + " (shared machine)%n", nodeIds.size(), expected.size(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent));
            assertThat(catalogue.taskDefinitions("svc")).extracting(TaskDefinitionRecord::id).containsExactly("hot");
            assertThat(reader.nodeTasks("other-service", nodeIds)).isEmpty();

            // an invalid definition is dead-lettered with the reason; the job goes on
            publish(producer, TestTasks.regex("broken", null, "^T\\.(m1", "x"));
            assertThat(awaitDeadLetter(servers)).contains("'broken'").contains("invalid regular expression");

            // changed: labels move; deleted: labels and definition gone
            TaskDefinition changed = TestTasks.regex("hot", null, "^T\\.m1[0-3]$", "hot");
            sent = System.nanoTime();
            publish(producer, changed);
            awaitLabels(reader, nodeIds, ExpectedLabels.of(tree, "svc", List.of(changed), ALPHABET));
            System.out.printf("changed definition queryable after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent));
            assertThat(catalogue.taskDefinitions("svc")).singleElement()
                    .satisfies(d -> assertThat(d.service()).isNull());

            sent = System.nanoTime();
            producer.send(new ProducerRecord<>(TASKS, "hot".getBytes(StandardCharsets.UTF_8), null)).get();
            awaitLabels(reader, nodeIds, Map.of());
            System.out.printf("deleted definition queryable after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent));
            await("definition deleted").atMost(WAIT).until(() -> catalogue.taskDefinitions(null).isEmpty());
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static void awaitLabels(TopologyReader reader, List<Long> nodeIds, Map<Long, List<String>> expected) {
        AtomicReference<Map<Long, List<String>>> last = new AtomicReference<>();
        await("stored labels equal to cct-core's labelling from scratch").atMost(WAIT)
                .pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> {
                    last.set(reader.nodeTasks("svc", nodeIds));
                    return last.get().equals(expected);
                });
    }

    private static void publish(KafkaProducer<byte[], byte[]> producer, TaskDefinition definition) throws Exception {
        var r = TestTasks.record(definition, 0);
        producer.send(new ProducerRecord<>(TASKS, r.key, r.value)).get();
    }

    private static String awaitDeadLetter(TestServers servers) {
        Properties p = new Properties();
        p.put("bootstrap.servers", servers.kafkaBootstrapServers());
        p.put("group.id", "tasks-test-dlq-" + System.nanoTime());
        p.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(DLQ));
            AtomicReference<String> reason = new AtomicReference<>();
            await("the invalid definition dead-lettered").atMost(WAIT).until(() -> {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    var header = r.headers().lastHeader(DeadLetterSerializer.REASON_HEADER);
                    if (header != null) {
                        reason.set(new String(header.value(), StandardCharsets.UTF_8));
                    }
                }
                return reason.get() != null;
            });
            return reason.get();
        }
    }

    private static KafkaProducer<byte[], byte[]> producer(TestServers servers) {
        Properties p = new Properties();
        p.put("bootstrap.servers", servers.kafkaBootstrapServers());
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }
}
