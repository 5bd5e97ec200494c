package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.flink.cct.BatchTrees;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.WindowCounts;
import io.cctflow.schema.SampleBatch;
import io.cctflow.servers.TestServers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.neo4j.driver.Driver;

/** The samples job on a MiniCluster with a real broker and a real Neo4j. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SamplesJobTest {

    @Test
    void storedTreesEqualInMemoryMergeOfTheSameBatchesPerWindow() throws Exception {
        TestServers servers = TestServers.get();
        String topic = "job-test.samples";
        servers.createTopic(topic, 3);
        servers.createTopic("job-test.dlq", 1);
        servers.cleanNeo4j();

        // three executions, batches spread over three one-minute windows, sent out of order
        Random random = new Random(42);
        List<SampleBatch> batches = new ArrayList<>();
        for (String instance : List.of("i-1", "i-2", "i-3")) {
            ExecutionId e = TestBatches.execution(instance);
            for (int seq = 0; seq < 15; seq++) {
                batches.add(TestBatches.random(e, seq, 60_000L + seq * 10_000L, random, 40, 6));
            }
        }
        List<SampleBatch> shuffled = new ArrayList<>(batches);
        java.util.Collections.shuffle(shuffled, random);
        Properties p = new Properties();
        p.put("bootstrap.servers", servers.kafkaBootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (SampleBatch b : shuffled) {
                var r = TestBatches.record(b, 0);
                producer.send(new ProducerRecord<>(topic, r.key, r.value));
            }
            producer.send(new ProducerRecord<>(topic, "x".getBytes(StandardCharsets.UTF_8), new byte[] {0})).get();
        }

        SamplesJobConfig config = SamplesJobConfig.defaults()
                .with(Map.of(SamplesJobConfig.STATE_BACKEND, "hashmap")).with(Map.of(
                SamplesJobConfig.BOOTSTRAP_SERVERS, servers.kafkaBootstrapServers(),
                SamplesJobConfig.SAMPLES_TOPIC, topic,
                SamplesJobConfig.DEAD_LETTER_TOPIC, "job-test.dlq",
                SamplesJobConfig.GROUP_ID, "job-test-" + System.nanoTime(),
                SamplesJobConfig.NEO4J_URI, servers.neo4jUri(),
                SamplesJobConfig.NEO4J_USER, servers.neo4jUser(),
                SamplesJobConfig.NEO4J_PASSWORD, servers.neo4jPassword(),
                SamplesJobConfig.PARALLELISM, "2",
                SamplesJobConfig.BOUNDED, "true"));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(
                Configuration.fromMap(Map.of("restart-strategy.type", "none")));
        SamplesJob.start(env, config).getJobExecutionResult().get(4, TimeUnit.MINUTES);

        try (Driver driver = servers.newDriver()) {
            WindowReader reader = new WindowReader(driver, "");
            TopologyReader topology = new TopologyReader(driver, "");
            for (String instance : List.of("i-1", "i-2", "i-3")) {
                String key = TestBatches.execution(instance).key();
                List<WindowCounts> windows = reader.windows(List.of(key), 0, Long.MAX_VALUE);
                assertThat(windows).as("windows of %s", instance).hasSize(3);
                for (WindowCounts window : windows) {
                    long start = window.windowStartMillis();
                    Cct stored = topology.rebuild(reader.plan(List.of(key), start, start + 60_000L).sum());
                    Cct expected = inMemory(batches, key, start, start + 60_000L);
                    assertSameTree(stored, expected, instance + " window " + start);
                    // per node, per (node, thread) and per method, number for number
                    assertThat(window.counts()).as("%s window %d counts", instance, start)
                            .isEqualTo(TreeCounts.of(expected));
                }
                assertThat(windows).extracting(WindowCounts::windowStartMillis)
                        .containsExactlyInAnyOrder(60_000L, 120_000L, 180_000L);
            }
            assertThat(new CatalogueReader(driver, "").instances("svc")).hasSize(3)
                    .allSatisfy(i -> assertThat(i.firstSampleMillis()).isEqualTo(60_000L));
        }
    }

    private static Cct inMemory(List<SampleBatch> batches, String key, long from, long to) {
        Cct tree = new Cct();
        for (SampleBatch b : batches) {
            var i = b.getInstance();
            if (!new ExecutionId(i.getService(), i.getVersion(), i.getInstanceId()).key().equals(key)
                    || b.getWindowStartMillis() < from || b.getWindowStartMillis() >= to) {
                continue;
            }
            BatchTrees.mergeComplete(b, tree);
        }
        return tree;
    }

    private static void assertSameTree(Cct actual, Cct expected, String what) {
        assertThat(actual.size()).as("%s: nodes", what).isEqualTo(expected.size());
        for (int n = 0; n < expected.size(); n++) {
            int a = actual.indexOf(expected.id(n));
            assertThat(a).as("%s: node %d present", what, expected.id(n)).isNotNegative();
            assertThat(new long[] {actual.self(a), actual.total(a), actual.recursiveParent(a) < 0 ? 0 : 1})
                    .as("%s: node %d self, total, recursive", what, expected.id(n))
                    .containsExactly(expected.self(n), expected.total(n), expected.recursiveParent(n) < 0 ? 0 : 1);
            for (int t = 0; t < expected.threads(); t++) {
                assertThat(actual.selfOnThread(a, actual.thread(expected.threadName(t))))
                        .as("%s: node %d on %s", what, expected.id(n), expected.threadName(t))
                        .isEqualTo(expected.selfOnThread(n, t));
            }
        }
    }
}
