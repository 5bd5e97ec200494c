package io.cctflow.bench.pipeline;

import io.cctflow.core.ExecutionId;
import io.cctflow.flink.JobTopics;
import io.cctflow.flink.SamplesJob;
import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.schema.SampleBatch;
import io.cctflow.servers.KafkaServer;
import io.cctflow.servers.Neo4jServer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;

/**
 * Everything the benchmark measures, on this machine: a Kafka broker (KRaft, child process), Neo4j
 * (embedded, Bolt), the real samples job on a Flink MiniCluster (as {@code standalone} starts them),
 * plus the benchmark's own producer, lag reader and Neo4j reader.
 *
 * <p>{@link #send} is thread-safe (Kafka's producer is); {@link #close} stops everything in reverse order.
 */
public final class EmbeddedPipeline implements BatchTarget, AutoCloseable {
    private final Deque<AutoCloseable> running = new ArrayDeque<>();
    private final SamplesJobConfig config;
    private final KafkaProducer<byte[], byte[]> producer;
    private final ConsumerLag lag;
    private final Driver driver;
    private final WindowReader reader;

    private EmbeddedPipeline(Path dataDir, Map<String, String> jobSettings, int partitions) throws Exception {
        KafkaServer kafka = startKafka(dataDir.resolve("kafka"), partitions);
        running.push(kafka);
        SamplesJobConfig defaults = SamplesJobConfig.defaults();
        Neo4jServer neo4j = Neo4jServer.start(dataDir.resolve("neo4j"));
        running.push(neo4j);
        Map<String, String> settings = new HashMap<>(jobSettings);
        settings.put(SamplesJobConfig.BOOTSTRAP_SERVERS, kafka.bootstrapServers());
        settings.put(SamplesJobConfig.NEO4J_URI, neo4j.boltUri());
        config = defaults.with(settings);
        JobClient job = SamplesJob.start(flinkEnvironment(dataDir.resolve("flink")), config);
        running.push(() -> job.cancel().get());
        producer = new KafkaProducer<>(producerProperties(kafka.bootstrapServers()));
        running.push(producer);
        lag = new ConsumerLag(kafka.bootstrapServers(), config.samplesTopic(), config.groupId());
        running.push(lag);
        driver = config.graph().openDriver();
        running.push(driver);
        reader = WindowReader.asStored(driver, config.graph().database()); // the probes sum self counts
    }

    /**
     * The broker as the benchmark runs it, with the job's topics (samples: {@code partitions}
     * partitions) created before any job starts.
     */
    static KafkaServer startKafka(Path dir, int partitions) {
        // the full JIT, as a production broker has: local-servers starts brokers with C1 only, which
        // saves CPU at start but costs it on every request of a sustained load
        KafkaServer kafka = KafkaServer.builder(dir).jvmOption("-XX:TieredStopAtLevel=4").start();
        try {
            SamplesJobConfig defaults = SamplesJobConfig.defaults();
            kafka.createTopic(defaults.samplesTopic(), partitions, JobTopics.agentTopicConfigs());
            kafka.createTopic(defaults.deadLetterTopic(), 1, Map.of());
            // before the job starts, as standalone does: the job subscribes to it by pattern
            kafka.createTopic(defaults.manifestsTopic(), 1, Map.of());
            return kafka;
        } catch (RuntimeException e) {
            kafka.close();
            throw e;
        }
    }

    /**
     * Starts the pipeline with its data under {@code dataDir} (which should be empty: the node
     * benchmark counts nodes it creates).
     *
     * @param jobSettings samples-job keys (README "The samples job") that differ from the defaults
     */
    public static EmbeddedPipeline start(Path dataDir, Map<String, String> jobSettings, int partitions)
            throws Exception {
        return new EmbeddedPipeline(dataDir, jobSettings, partitions);
    }

    /** Publishes one batch keyed by its execution, as the agent does; completes on the broker's ack. */
    public CompletableFuture<Void> send(SampleBatch batch) throws IOException {
        return send(config.samplesTopic(), executionKey(batch), batch.toByteBuffer());
    }

    @Override
    public CompletableFuture<Void> sendSamples(String executionKey, byte[] encodedBatch) {
        return send(config.samplesTopic(), executionKey, encodedBatch);
    }

    /** Publishes a task definition keyed by its id, as the query service does; completes on the broker's ack. */
    public CompletableFuture<Void> publish(io.cctflow.schema.TaskDefinition definition) throws IOException {
        return send(config.tasksTopic(), definition.getId(), definition.toByteBuffer());
    }

    private CompletableFuture<Void> send(String topic, String key, ByteBuffer buffer) {
        byte[] value = new byte[buffer.remaining()];
        buffer.get(value);
        return send(topic, key, value);
    }

    private CompletableFuture<Void> send(String topic, String key, byte[] value) {
        return send(producer, topic, key, value);
    }

    /** Publishes {@code value} under {@code key} with {@code producer}; completes on the broker's ack. */
    static CompletableFuture<Void> send(KafkaProducer<byte[], byte[]> producer, String topic, String key, byte[] value) {
        CompletableFuture<Void> acked = new CompletableFuture<>();
        producer.send(new ProducerRecord<>(topic, key.getBytes(java.nio.charset.StandardCharsets.UTF_8), value),
                (metadata, e) -> {
                    if (e == null) {
                        acked.complete(null);
                    } else {
                        acked.completeExceptionally(e);
                    }
                });
        return acked;
    }

    /** The single number {@code query} returns, read from the job's Neo4j database. */
    public long count(String query, Map<String, Object> params) {
        String database = config.graph().database();
        SessionConfig sessions = database.isEmpty() ? SessionConfig.defaultConfig() : SessionConfig.forDatabase(database);
        try (Session session = driver.session(sessions)) {
            return session.executeRead(tx -> tx.run(query, params).single().get(0).asLong());
        }
    }

    public static String executionKey(SampleBatch batch) {
        return new ExecutionId(batch.getInstance().getService(), batch.getInstance().getVersion(),
                batch.getInstance().getInstanceId()).key();
    }

    public SamplesJobConfig config() {
        return config;
    }

    public ConsumerLag lag() {
        return lag;
    }

    public Driver driver() {
        return driver;
    }

    /** Neo4j's windows as stored ({@link WindowReader#asStored}: self counts, no topology), for the latency probes. */
    public WindowReader reader() {
        return reader;
    }

    /** The benchmark producer's settings: acks=all and idempotent as the agent's, lz4 to spare the generator's CPU. */
    static Properties producerProperties(String bootstrapServers) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // its network thread is then "kafka-producer-network-thread | fleet-generator": CpuShares counts it as the generator's
        p.put(ProducerConfig.CLIENT_ID_CONFIG, FleetLoad.THREAD_NAME);
        // lz4 rather than the agent's gzip: the generator shares the machine's two cores with the pipeline
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 << 20);
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 128L << 20);
        return p;
    }

    /** A MiniCluster like standalone's, without retained checkpoints: every run starts fresh. */
    static StreamExecutionEnvironment flinkEnvironment(Path dir) {
        Map<String, String> conf = Map.of(
                "execution.checkpointing.storage", "filesystem",
                "execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString(),
                "restart-strategy.type", "none",
                "taskmanager.numberOfTaskSlots", "4",
                "rest.bind-port", "0");
        return StreamExecutionEnvironment.createLocalEnvironment(Configuration.fromMap(conf));
    }

    @Override
    public void close() {
        while (!running.isEmpty()) {
            try {
                running.pop().close();
            } catch (Exception e) {
                System.err.println("while stopping: " + e);
            }
        }
    }
}
