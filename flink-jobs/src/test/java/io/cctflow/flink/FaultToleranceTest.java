package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.NodeId;
import io.cctflow.core.TreeCounts;
import io.cctflow.flink.cct.BatchTrees;
import io.cctflow.flink.ingest.DeadLetterSerializer;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.WindowCounts;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.RecordSizes;
import io.cctflow.schema.SampleBatch;
import io.cctflow.servers.TestServers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.testutils.InMemoryReporter;
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
 * Exactly-once effect on a running job (MiniCluster, real broker and Neo4j): after the job is
 * killed between two checkpoints and restarted from the last one, after Neo4j goes away and
 * comes back mid-stream, and after Neo4j's process is killed with {@code kill -9} mid-write and
 * started again on its store, the stored counts equal those of a failure-free run (cct-core on the same
 * batches in memory) number for number, and no node is stored twice. Every wait is for an
 * observable effect (stored counts, a checkpoint on disk, a retry counted), never a fixed time.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class FaultToleranceTest {
    private static final Duration WAIT = Duration.ofMinutes(3);

    @Test
    void jobKilledBetweenCheckpointsAndRestoredStoresTheFailureFreeCounts() throws Exception {
        TestServers servers = TestServers.get();
        String topic = "ft-kill.samples";
        servers.createTopic(topic, 2);
        servers.createTopic("ft.dlq", 1);
        servers.cleanNeo4j();
        List<SampleBatch> batches = batches(new Random(11));
        List<SampleBatch> first = batches.subList(0, batches.size() / 2);
        List<SampleBatch> second = batches.subList(batches.size() / 2, batches.size());
        Path checkpoints = Files.createTempDirectory(Path.of("target"), "ft-checkpoints-").toAbsolutePath();
        // the production state backend: RocksDB with incremental checkpoints
        SamplesJobConfig config = config(servers, topic, "ft-kill-" + System.nanoTime(), "rocksdb");

        JobClient job = SamplesJob.start(environment(checkpoints, null, new Configuration()), config);
        try (KafkaProducer<byte[], byte[]> producer = producer(servers); Driver driver = servers.newDriver()) {
            WindowReader reader = new WindowReader(driver, "");
            send(producer, topic, first);
            awaitStored(reader, expected(first));
            FileTime processed = FileTime.fromMillis(System.currentTimeMillis());
            await("a checkpoint after the first half was processed").atMost(WAIT)
                    .until(() -> latestCheckpoint(checkpoints).filter(c -> modified(c).compareTo(processed) > 0)
                            .isPresent());
            // more data, then the kill: some of it is processed and written after that checkpoint
            send(producer, topic, second);
            job.cancel().get(1, TimeUnit.MINUTES);
        }
        Path restoreFrom = latestCheckpoint(checkpoints).orElseThrow();

        JobClient restored = SamplesJob.start(environment(checkpoints, restoreFrom, new Configuration()), config);
        try (Driver driver = servers.newDriver()) {
            WindowReader reader = new WindowReader(driver, "");
            awaitStored(reader, expected(batches));
            // the topology sink runs apart from the window sink: its last writes may still be on the way
            await("every node stored once").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertNoNodeStoredTwice(driver, batches));
        } finally {
            restored.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void neo4jAwayAndBackMidStreamLosesAndDoublesNothing() throws Exception {
        TestServers servers = TestServers.get();
        String topic = "ft-neo4j.samples";
        servers.createTopic(topic, 2);
        servers.createTopic("ft.dlq", 1);
        servers.cleanNeo4j();
        List<SampleBatch> batches = batches(new Random(12));
        List<SampleBatch> first = batches.subList(0, batches.size() / 2);
        List<SampleBatch> second = batches.subList(batches.size() / 2, batches.size());
        InMemoryReporter metrics = InMemoryReporter.create();
        Path checkpoints = Files.createTempDirectory(Path.of("target"), "ft-checkpoints-").toAbsolutePath();
        SamplesJobConfig config = config(servers, topic, "ft-neo4j-" + System.nanoTime(), "hashmap");

        JobClient job = SamplesJob.start(environment(checkpoints, null, metrics.addToConfiguration(new Configuration())),
                config);
        try (KafkaProducer<byte[], byte[]> producer = producer(servers)) {
            try (Driver driver = servers.newDriver()) {
                send(producer, topic, first);
                awaitStored(new WindowReader(driver, ""), expected(first));
            }
            servers.suspendNeo4j();
            try {
                send(producer, topic, second);
                await("the sink retrying while Neo4j is away").atMost(WAIT)
                        .until(() -> retries(metrics, job) > 0);
            } finally {
                servers.resumeNeo4j();
            }
            try (Driver driver = servers.newDriver()) {
                awaitStored(new WindowReader(driver, ""), expected(batches));
                // the topology sink runs apart from the window sink: its last writes may still be on the way
                await("every node stored once").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                        .untilAsserted(() -> assertNoNodeStoredTwice(driver, batches));
            }
            // the window sink reports what it read and what it took from its memory (forgotten at each failure)
            assertThat(count(metrics, job, "windowsRead") + count(metrics, job, "windowsRemembered")).isPositive();
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void neo4jKilledMidStreamAndRestartedOnItsStoreLosesAndDoublesNothing() throws Exception {
        TestServers servers = TestServers.get();
        String topic = "ft-neo4j-kill.samples";
        servers.createTopic(topic, 2);
        servers.createTopic("ft.dlq", 1);
        servers.cleanNeo4j();
        List<SampleBatch> batches = batches(new Random(18));
        int third = batches.size() / 3;
        List<SampleBatch> first = batches.subList(0, third);
        List<SampleBatch> second = batches.subList(third, 2 * third);
        List<SampleBatch> last = batches.subList(2 * third, batches.size());
        InMemoryReporter metrics = InMemoryReporter.create();
        Path checkpoints = Files.createTempDirectory(Path.of("target"), "ft-checkpoints-").toAbsolutePath();
        SamplesJobConfig config = config(servers, topic, "ft-neo4j-kill-" + System.nanoTime(), "rocksdb");

        JobClient job = SamplesJob.start(environment(checkpoints, null, metrics.addToConfiguration(new Configuration())),
                config);
        try (KafkaProducer<byte[], byte[]> producer = producer(servers)) {
            try (Driver driver = servers.newDriver()) {
                WindowReader reader = new WindowReader(driver, "");
                send(producer, topic, first);
                awaitStored(reader, expected(first));
                // the kill comes while the second third is being written: once part of it is stored
                Map<String, Map<Long, TreeCounts>> before = expected(first);
                send(producer, topic, second);
                await("a write of the second third stored").atMost(WAIT).pollInterval(Duration.ofMillis(50))
                        .ignoreExceptions().until(() -> !stored(reader, before.keySet()).equals(before));
            }
            servers.killNeo4j();
            try {
                send(producer, topic, last);
                await("the sink retrying while Neo4j is dead").atMost(WAIT).until(() -> retries(metrics, job) > 0);
            } finally {
                servers.resumeNeo4j();
            }
            try (Driver driver = servers.newDriver()) {
                awaitStored(new WindowReader(driver, ""), expected(batches));
                // the topology sink runs apart from the window sink: its last writes may still be on the way
                await("every node stored once").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                        .untilAsserted(() -> assertNoNodeStoredTwice(driver, batches));
            }
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void duplicatedBatchesAreCountedOnce() throws Exception {
        TestServers servers = TestServers.get();
        String topic = "ft-dup.samples";
        servers.createTopic(topic, 2);
        servers.createTopic("ft.dlq", 1);
        servers.cleanNeo4j();
        List<SampleBatch> batches = batches(new Random(13));
        // every third batch arrives twice (an agent's send that timed out and was retried), the
        // copy sometimes right after the original, sometimes after other batches
        List<SampleBatch> sent = new ArrayList<>(batches);
        for (int i = 0; i < batches.size(); i += 3) {
            sent.add(Math.min(sent.size(), i + 1 + i % 7), batches.get(i));
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(servers)) {
            send(producer, topic, sent);
        }
        runBounded(config(servers, topic, "ft-dup-" + System.nanoTime(), "hashmap"));
        try (Driver driver = servers.newDriver()) {
            Map<String, Map<Long, TreeCounts>> expected = expected(batches);
            assertThat(stored(new WindowReader(driver, ""), expected.keySet())).isEqualTo(expected);
        }
    }

    @Test
    void restartWithoutStateFromLaterOffsetsKeepsTheFailureFreeCounts() throws Exception {
        TestServers servers = TestServers.get();
        String before = "ft-stateless-1.samples";
        String after = "ft-stateless-2.samples";
        servers.createTopic(before, 2);
        servers.createTopic(after, 2);
        servers.createTopic("ft.dlq", 1);
        servers.cleanNeo4j();
        List<SampleBatch> batches = batches(new Random(14));
        // the first run reads A and B; the second starts without state (a new state version, a
        // lost checkpoint) from committed offsets that lag what was written: the last batches of
        // A and all of B. The windows in the middle hold batches of both.
        int split = batches.size() / 2 + 1;
        List<SampleBatch> resumed = batches.subList(split - 4, batches.size());
        try (KafkaProducer<byte[], byte[]> producer = producer(servers)) {
            send(producer, before, batches);
            send(producer, after, resumed);
        }
        runBounded(config(servers, before, "ft-stateless-1-" + System.nanoTime(), "hashmap"));
        Map<String, Map<Long, TreeCounts>> expected = expected(batches);
        try (Driver driver = servers.newDriver()) {
            assertThat(stored(new WindowReader(driver, ""), expected.keySet())).as("failure-free run")
                    .isEqualTo(expected);
        }
        runBounded(config(servers, after, "ft-stateless-2-" + System.nanoTime(), "hashmap"));
        try (Driver driver = servers.newDriver()) {
            assertThat(stored(new WindowReader(driver, ""), expected.keySet())).as("after the restart without state")
                    .isEqualTo(expected);
        }
    }

    @Test
    void aRecordingOneDayOldImportedBesideLiveDataIsStoredWhole() throws Exception {
        TestServers servers = TestServers.get();
        String topic = "ft-import.samples";
        servers.createTopic(topic, 2);
        servers.createTopic("ft.dlq", 1);
        servers.cleanNeo4j();
        long now = 1_800_000_000_000L - 1_800_000_000_000L % 60_000;
        List<SampleBatch> live = new ArrayList<>();
        List<SampleBatch> imported = new ArrayList<>();
        Random random = new Random(15);
        for (int seq = 0; seq < 12; seq++) {
            live.add(TestBatches.random(TestBatches.execution("ft-live"), seq, now + seq * 15_000L, random, 30, 6));
            // an imported recording has an execution of its own, one day behind the live data
            imported.add(TestBatches.random(TestBatches.execution("ft-imported"), seq,
                    now - Duration.ofDays(1).toMillis() + seq * 15_000L, random, 30, 6));
        }
        SamplesJobConfig config = config(servers, topic, "ft-import-" + System.nanoTime(), "hashmap");
        Path checkpoints = Files.createTempDirectory(Path.of("target"), "ft-checkpoints-").toAbsolutePath();
        JobClient job = SamplesJob.start(environment(checkpoints, null, new Configuration()), config);
        try (KafkaProducer<byte[], byte[]> producer = producer(servers); Driver driver = servers.newDriver()) {
            WindowReader reader = new WindowReader(driver, "");
            send(producer, topic, live);
            awaitStored(reader, expected(live));
            send(producer, topic, imported);
            Map<String, Map<Long, TreeCounts>> both = new TreeMap<>(expected(live));
            both.putAll(expected(imported));
            awaitStored(reader, both);
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    @Test
    void aBatchOfThreeMebibytesInATopicAsTheDeploymentsCreateItIsStoredWhole() throws Exception {
        TestServers servers = TestServers.get();
        String topic = "ft-large.samples";
        // the configs standalone, the standalone cluster and the bench give their samples topics
        servers.createTopic(topic, 1, JobTopics.agentTopicConfigs());
        servers.createTopic("ft.dlq", 1);
        servers.cleanNeo4j();
        SampleBatch large = largeBatch(new Random(19), 3 << 20);
        int gzipped = gzippedSize(TestBatches.encode(large));
        assertThat(gzipped).as("gzipped size, over the broker's 1 MiB default").isGreaterThan(1 << 20);
        // the agent's producer: gzip, and its limit on a record before compression
        Properties p = new Properties();
        p.put("bootstrap.servers", servers.kafkaBootstrapServers());
        p.put("compression.type", "gzip");
        p.put("max.request.size", Integer.toString(RecordSizes.MAX_RECORD_BYTES));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(p, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            send(producer, topic, List.of(large));
        }
        runBounded(config(servers, topic, "ft-large-" + System.nanoTime(), "hashmap"));
        try (Driver driver = servers.newDriver()) {
            Map<String, Map<Long, TreeCounts>> expected = expected(List.of(large));
            assertThat(stored(new WindowReader(driver, ""), expected.keySet())).isEqualTo(expected);
        }
    }

    /**
     * A batch of about {@code bytes} encoded, most of it method names of random characters, which
     * gzip shrinks by a fifth only: stacks 16 frames deep over distinct methods.
     */
    private static SampleBatch largeBatch(Random random, int bytes) {
        int nameLength = 240;
        int methods = bytes / (nameLength + 16);
        int depth = 16;
        int[][] stacks = new int[methods / depth][];
        long[] counts = new long[stacks.length];
        for (int s = 0; s < stacks.length; s++) {
            stacks[s] = new int[depth];
            stacks[s][0] = 0; // one root method, so the stacks form one tree
            for (int f = 1; f < depth; f++) {
                stacks[s][f] = s * depth + f;
            }
            counts[s] = 1 + random.nextInt(4);
        }
        SampleBatch batch = TestBatches.batch(TestBatches.execution("ft-large"), 0, 60_000L, stacks, counts);
        for (MethodRef method : batch.getMethods()) {
            StringBuilder name = new StringBuilder("C");
            random.ints(nameLength, '!', '~' + 1).forEach(c -> name.append((char) c));
            method.setClassName(name.toString());
        }
        return batch;
    }

    private static int gzippedSize(byte[] bytes) throws java.io.IOException {
        var out = new java.io.ByteArrayOutputStream();
        try (var gzip = new java.util.zip.GZIPOutputStream(out)) {
            gzip.write(bytes);
        }
        return out.size();
    }

    @Test
    void anOversizeGarbageRecordIsDeadLetteredCutToSizeAndTheJobGoesOn() throws Exception {
        TestServers servers = TestServers.get();
        String topic = "ft-poison.samples";
        String deadLetters = "ft-poison.dlq-" + System.nanoTime(); // created by the job
        int size = 4 * 1024 * 1024; // agents send batches up to 4 MiB
        servers.createTopic(topic, 1, Map.of("max.message.bytes", Integer.toString(2 * size)));
        servers.cleanNeo4j();
        List<SampleBatch> batches = batches(new Random(16));
        SamplesJobConfig config = config(servers, topic, "ft-poison-" + System.nanoTime(), "hashmap")
                .with(Map.of(SamplesJobConfig.DEAD_LETTER_TOPIC, deadLetters));
        Path checkpoints = Files.createTempDirectory(Path.of("target"), "ft-checkpoints-").toAbsolutePath();
        byte[] garbage = new byte[size];
        new Random(17).nextBytes(garbage);
        JobClient job = SamplesJob.start(environment(checkpoints, null, new Configuration()), config);
        try (KafkaProducer<byte[], byte[]> producer = producer(servers, 2 * size); Driver driver = servers.newDriver()) {
            producer.send(new ProducerRecord<>(topic, "garbage".getBytes(StandardCharsets.UTF_8), garbage)).get();
            send(producer, topic, batches);
            awaitStored(new WindowReader(driver, ""), expected(batches));
            ConsumerRecord<byte[], byte[]> dead = awaitDeadLetter(servers, deadLetters);
            assertThat(header(dead, DeadLetterSerializer.ORIGIN_HEADER)).isEqualTo(topic + "/0@0");
            assertThat(header(dead, DeadLetterSerializer.ORIGINAL_SIZE_HEADER)).isEqualTo(Integer.toString(size));
            assertThat(header(dead, DeadLetterSerializer.TRUNCATED_HEADER)).startsWith("value cut from " + size);
            assertThat(header(dead, DeadLetterSerializer.REASON_HEADER)).isNotBlank();
            assertThat(dead.value().length).isLessThan(1024 * 1024);
            assertThat(dead.value()).isEqualTo(java.util.Arrays.copyOf(garbage, dead.value().length));
            assertThat(job.getJobStatus().get(1, TimeUnit.MINUTES)).isEqualTo(JobStatus.RUNNING);
        } finally {
            cancelUnlessGone(job);
        }
    }

    /**
     * Cancels the job, unless it failed for good: then the local environment has shut its
     * MiniCluster down, and cancelling would throw and hide why the test failed.
     */
    private static void cancelUnlessGone(JobClient job) throws Exception {
        try {
            job.getJobStatus().get(1, TimeUnit.MINUTES);
        } catch (IllegalStateException e) {
            return; // "MiniCluster is not yet running or has already been shut down"
        }
        job.cancel().get(1, TimeUnit.MINUTES);
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
        var h = record.headers().lastHeader(name);
        assertThat(h).as("header %s", name).isNotNull();
        return new String(h.value(), StandardCharsets.UTF_8);
    }

    private static ConsumerRecord<byte[], byte[]> awaitDeadLetter(TestServers servers, String topic) {
        Properties p = new Properties();
        p.put("bootstrap.servers", servers.kafkaBootstrapServers());
        p.put("group.id", "ft-dlq-" + System.nanoTime());
        p.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<ConsumerRecord<byte[], byte[]>> got = new ArrayList<>();
            await("dead letter in " + topic).atMost(WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(500)).forEach(got::add);
                return !got.isEmpty();
            });
            assertThat(got).hasSize(1);
            return got.get(0);
        }
    }

    private static void runBounded(SamplesJobConfig config) throws Exception {
        SamplesJob.start(StreamExecutionEnvironment.createLocalEnvironment(
                        Configuration.fromMap(Map.of("restart-strategy.type", "none"))),
                        config.with(Map.of(SamplesJobConfig.BOUNDED, "true")))
                .getJobExecutionResult().get(4, TimeUnit.MINUTES);
    }

    /** Two executions, 12 batches each over three one-minute windows, interleaved. */
    private static List<SampleBatch> batches(Random random) {
        List<SampleBatch> batches = new ArrayList<>();
        for (int seq = 0; seq < 12; seq++) {
            for (String instance : List.of("ft-1", "ft-2")) {
                batches.add(TestBatches.random(TestBatches.execution(instance), seq, 60_000L + seq * 15_000L, random,
                        30, 6));
            }
        }
        return batches;
    }

    private static SamplesJobConfig config(TestServers servers, String topic, String group, String stateBackend) {
        return SamplesJobConfig.defaults().with(Map.of(SamplesJobConfig.STATE_BACKEND, stateBackend)).with(Map.of(
                SamplesJobConfig.BOOTSTRAP_SERVERS, servers.kafkaBootstrapServers(),
                SamplesJobConfig.SAMPLES_TOPIC, topic,
                SamplesJobConfig.DEAD_LETTER_TOPIC, "ft.dlq",
                SamplesJobConfig.GROUP_ID, group,
                SamplesJobConfig.NEO4J_URI, servers.neo4jUri(),
                SamplesJobConfig.NEO4J_USER, servers.neo4jUser(),
                SamplesJobConfig.NEO4J_PASSWORD, servers.neo4jPassword(),
                SamplesJobConfig.CHECKPOINT_INTERVAL, "1s",
                // short retries: at the defaults the sink counted its first retry only after the driver's
                // 30 s of retrying a transaction (60 s once), and waited up to 15 s after Neo4j was back
                SamplesJobConfig.NEO4J_RETRY_MAX_DELAY, "1s",
                SamplesJobConfig.NEO4J_TRANSACTION_RETRY, "1s"));
    }

    private static StreamExecutionEnvironment environment(Path checkpoints, Path restoreFrom, Configuration base) {
        Configuration conf = new Configuration(base);
        Map<String, String> settings = new HashMap<>(Map.of(
                "execution.checkpointing.storage", "filesystem",
                "execution.checkpointing.dir", checkpoints.toUri().toString(),
                "execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION",
                "execution.checkpointing.num-retained", "3",
                "restart-strategy.type", "fixed-delay",
                "restart-strategy.fixed-delay.attempts", "20",
                "restart-strategy.fixed-delay.delay", "1s"));
        if (restoreFrom != null) {
            settings.put("execution.state-recovery.path", restoreFrom.toUri().toString());
        }
        conf.addAll(Configuration.fromMap(settings));
        return StreamExecutionEnvironment.createLocalEnvironment(conf);
    }

    private static KafkaProducer<byte[], byte[]> producer(TestServers servers) {
        return producer(servers, 1024 * 1024);
    }

    private static KafkaProducer<byte[], byte[]> producer(TestServers servers, int maxRequestSize) {
        Properties p = new Properties();
        p.put("bootstrap.servers", servers.kafkaBootstrapServers());
        p.put("max.request.size", Integer.toString(maxRequestSize));
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, String topic, List<SampleBatch> batches)
            throws Exception {
        for (SampleBatch batch : batches) {
            var r = TestBatches.record(batch, 0);
            producer.send(new ProducerRecord<>(topic, r.key, r.value)).get();
        }
    }

    /** Failure-free counts: (execution key, window start) to cct-core's counts of those batches. */
    private static Map<String, Map<Long, TreeCounts>> expected(List<SampleBatch> batches) {
        Map<String, Map<Long, Cct>> trees = new TreeMap<>();
        for (SampleBatch b : batches) {
            var i = b.getInstance();
            String key = new ExecutionId(i.getService(), i.getVersion(), i.getInstanceId()).key();
            long window = b.getWindowStartMillis() - b.getWindowStartMillis() % 60_000;
            Cct tree = trees.computeIfAbsent(key, k -> new TreeMap<>()).computeIfAbsent(window, w -> new Cct());
            BatchTrees.mergeComplete(b, tree);
        }
        Map<String, Map<Long, TreeCounts>> counts = new TreeMap<>();
        trees.forEach((key, windows) -> windows.forEach((start, tree) ->
                counts.computeIfAbsent(key, k -> new TreeMap<>()).put(start, TreeCounts.of(tree))));
        return counts;
    }

    private static void awaitStored(WindowReader reader, Map<String, Map<Long, TreeCounts>> expected) {
        await("stored counts equal to the failure-free counts").atMost(WAIT).pollInterval(Duration.ofMillis(500))
                .ignoreExceptions()
                .until(() -> stored(reader, expected.keySet()).equals(expected));
    }

    private static Map<String, Map<Long, TreeCounts>> stored(WindowReader reader, Iterable<String> keys) {
        Map<String, Map<Long, TreeCounts>> stored = new TreeMap<>();
        for (String key : keys) {
            for (WindowCounts w : reader.windows(List.of(key), 0, Long.MAX_VALUE)) {
                stored.computeIfAbsent(key, k -> new TreeMap<>()).put(w.windowStartMillis(), w.counts());
            }
        }
        return stored;
    }

    private static void assertNoNodeStoredTwice(Driver driver, List<SampleBatch> batches) {
        Cct all = new Cct();
        for (SampleBatch b : batches) {
            BatchTrees.mergeComplete(b, all);
        }
        try (var session = driver.session()) {
            Map<String, Object> root = Map.of("root", NodeId.ROOT);
            long nodes = session.run("MATCH (n:CctNode) WHERE n.id <> $root RETURN count(n) AS c", root).single()
                    .get("c").asLong();
            long distinct = session.run("MATCH (n:CctNode) WHERE n.id <> $root RETURN count(DISTINCT n.id) AS c", root)
                    .single().get("c").asLong();
            assertThat(nodes).isEqualTo(distinct).isEqualTo(all.size() - 1);
            long edges = session.run("MATCH (:CctNode)-[c:CALLS]->(n:CctNode) RETURN count(c) AS c").single().get("c")
                    .asLong();
            assertThat(edges).isEqualTo(all.size() - 1);
        }
    }

    private static long retries(InMemoryReporter metrics, JobClient job) {
        return count(metrics, job, "neo4jRetries");
    }

    /** The sum over subtasks of the job's counter {@code name}. */
    private static long count(InMemoryReporter metrics, JobClient job, String name) {
        return metrics.findMetrics(job.getJobID(), name).entrySet().stream() // the names that contain it
                .filter(e -> e.getKey().endsWith("." + name)).mapToLong(e -> ((Counter) e.getValue()).getCount()).sum();
    }

    private static Optional<Path> latestCheckpoint(Path dir) throws Exception {
        try (Stream<Path> found = Files.find(dir, 2, (path, attrs) -> attrs.isDirectory()
                && path.getFileName().toString().startsWith("chk-") && Files.isRegularFile(path.resolve("_metadata")))) {
            return found.max((a, b) -> modified(a).compareTo(modified(b)));
        }
    }

    private static FileTime modified(Path checkpoint) {
        try {
            return Files.getLastModifiedTime(checkpoint.resolve("_metadata"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
