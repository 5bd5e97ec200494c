package io.cctflow.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cctflow.core.ExecutionId;
import io.cctflow.flink.JobTopics;
import io.cctflow.flink.SamplesJob;
import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.WindowCounts;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import io.cctflow.servers.TestServers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.neo4j.driver.Driver;

/**
 * {@code import --watch} as a user runs it (the shipped agent jar, a child JVM), into a running
 * job (MiniCluster, real broker and Neo4j) while live data flows: a recording one day old dropped
 * into the watched directory is stored whole, in its own day-old window, and the live data with
 * it; a watcher started again on the same directory imports the file a second time, and the job
 * still holds it once.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class WatchedImportTest {
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static final String SERVICE = "watch-import";

    @Test
    void aRecordingOneDayOldDroppedIntoAWatchedDirectoryIsStoredOnceWholeBesideLiveData() throws Exception {
        TestServers servers = TestServers.get();
        String topic = "watch.samples";
        servers.createTopic(topic, 1, JobTopics.agentTopicConfigs()); // one partition: one order for all
        servers.createTopic("watch.samples.dlq", 1);
        servers.cleanNeo4j();
        Path dir = Files.createTempDirectory(Path.of("target"), "watched-").toAbsolutePath();
        SamplesJobConfig config = SamplesJobConfig.defaults().with(Map.of(SamplesJobConfig.STATE_BACKEND, "hashmap"))
                .with(Map.of(
                        SamplesJobConfig.BOOTSTRAP_SERVERS, servers.kafkaBootstrapServers(),
                        SamplesJobConfig.SAMPLES_TOPIC, topic,
                        SamplesJobConfig.DEAD_LETTER_TOPIC, "watch.samples.dlq",
                        SamplesJobConfig.GROUP_ID, "watch-" + System.nanoTime(),
                        SamplesJobConfig.NEO4J_URI, servers.neo4jUri(),
                        SamplesJobConfig.NEO4J_USER, servers.neo4jUser(),
                        SamplesJobConfig.NEO4J_PASSWORD, servers.neo4jPassword(),
                        SamplesJobConfig.CHECKPOINT_INTERVAL, "1s"));
        JobClient job = SamplesJob.start(StreamExecutionEnvironment.createLocalEnvironment(
                Configuration.fromMap(Map.of("restart-strategy.type", "none"))), config);
        ExecutionId liveExecution = new ExecutionId(SERVICE, "v1", "live-1");
        ExecutionId imported = new ExecutionId(SERVICE, "v1", "old-recording");
        try (LiveBatches live = new LiveBatches(servers.kafkaBootstrapServers(), topic, liveExecution);
             Driver driver = servers.newDriver()) {
            WindowReader reader = new WindowReader(driver, "");
            live.start();
            await("live data stored").atMost(WAIT).ignoreExceptions().until(() -> samples(reader, liveExecution) > 0);

            // copied in as a user's tools do: written under a hidden name, then renamed into place
            long dayAgo = System.currentTimeMillis() - Duration.ofDays(1).toMillis();
            Random random = new Random(30);
            StringBuilder lines = new StringBuilder();
            long total = 0;
            for (int i = 0; i < 200; i++) {
                int count = 1 + random.nextInt(9);
                total += count;
                lines.append("app.Main.main;app.Server.serve;app.Handler.h").append(random.nextInt(20))
                        .append(random.nextBoolean() ? ";app.Db.query" : "").append(' ').append(count).append('\n');
            }
            Path part = dir.resolve(".old-recording.collapsed.part");
            Files.writeString(part, lines, StandardCharsets.UTF_8);
            Files.setLastModifiedTime(part, FileTime.fromMillis(dayAgo));
            Files.move(part, dir.resolve("old-recording.collapsed"), StandardCopyOption.ATOMIC_MOVE);

            Watcher first = Watcher.start(servers.kafkaBootstrapServers(), topic, dir);
            try {
                long expected = total;
                await("the day-old recording stored whole").atMost(WAIT).ignoreExceptions()
                        .until(() -> samples(reader, imported) == expected);
            } finally {
                first.stop();
            }
            // started again, the watcher knows nothing of what it imported: it sends the file again
            Watcher again = Watcher.start(servers.kafkaBootstrapServers(), topic, dir);
            try {
                again.awaitAcknowledged();
            } finally {
                again.stop();
            }
            long liveSent = live.stop();
            // the last live batch follows the second import on the one partition: once it is
            // stored, so is whatever the job made of the second import
            await("every live batch stored").atMost(WAIT).ignoreExceptions()
                    .until(() -> samples(reader, liveExecution) == liveSent);
            assertThat(samples(reader, imported)).as("the day-old recording, imported twice").isEqualTo(total);
            List<WindowCounts> windows = reader.windows(List.of(imported.key()), 0, Long.MAX_VALUE);
            assertThat(windows).allSatisfy(w -> assertThat(w.windowStartMillis())
                    .isBetween(dayAgo - 60_000, dayAgo + 60_000));
        } finally {
            job.cancel().get(1, TimeUnit.MINUTES);
        }
    }

    private static long samples(WindowReader reader, ExecutionId execution) {
        return reader.windows(List.of(execution.key()), 0, Long.MAX_VALUE).stream()
                .mapToLong(w -> Arrays.stream(w.counts().self()).sum()).sum();
    }

    /** {@code java -jar cctflow-agent.jar import --watch DIR}, output to a log file. */
    private record Watcher(Process process, Path log) {
        static Watcher start(String bootstrapServers, String topic, Path dir) throws Exception {
            Path agentJar = Path.of(System.getProperty("cctflow.agent.jar"));
            assertThat(agentJar).as("shipped agent jar (built by the collector module)").isRegularFile();
            Path log = Files.createTempFile(Path.of("target"), "watcher-", ".log");
            Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-jar", agentJar.toString(), "import", "--watch", "--poll", "200ms",
                    "--bootstrap-servers", bootstrapServers, "--topic", topic, "--service", SERVICE, "--version", "v1",
                    dir.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            return new Watcher(process, log);
        }

        void awaitAcknowledged() {
            await("the watcher imported the file; log " + log).atMost(WAIT)
                    .failFast("the watcher exited; log " + log, () -> !process.isAlive())
                    .until(() -> Files.readString(log).contains("acknowledged (instance old-recording)"));
        }

        /** SIGTERM: the watcher finishes its file and prints its summary. */
        void stop() throws Exception {
            process.destroy();
            assertThat(process.waitFor(1, TimeUnit.MINUTES)).as("watcher stops; log %s", log).isTrue();
        }
    }

    /** Batches of one execution stamped with the current time, one every 100 ms until stopped. */
    private static final class LiveBatches implements AutoCloseable {
        private final KafkaProducer<byte[], byte[]> producer;
        private final String topic;
        private final ExecutionId execution;
        private final InstanceInfo info;
        private final ScheduledExecutorService sender = Executors.newSingleThreadScheduledExecutor();
        private final AtomicLong sequence = new AtomicLong();
        private final AtomicLong samples = new AtomicLong();

        LiveBatches(String bootstrapServers, String topic, ExecutionId execution) {
            Properties p = new Properties();
            p.put("bootstrap.servers", bootstrapServers);
            this.producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
            this.topic = topic;
            this.execution = execution;
            this.info = new InstanceInfo(execution.service(), execution.version(), execution.instance(), "host", 7L,
                    System.currentTimeMillis(), Map.of());
        }

        void start() {
            sender.scheduleAtFixedRate(this::sendOne, 0, 100, TimeUnit.MILLISECONDS);
        }

        /** Stops sending; returns the samples sent, every batch acknowledged. */
        long stop() throws InterruptedException {
            sender.shutdown();
            assertThat(sender.awaitTermination(1, TimeUnit.MINUTES)).as("live sender stopped").isTrue();
            return samples.get();
        }

        private void sendOne() {
            long now = System.currentTimeMillis();
            List<MethodRef> methods = List.of(new MethodRef("live.Main", "main", "()V"),
                    new MethodRef("live.Main", "work", "()V"));
            List<Stack> stacks = new ArrayList<>(List.of(new Stack(List.of(0, 1), List.of(0, 1), "main", false, 3L)));
            SampleBatch batch = new SampleBatch(info, now, now + 100, sequence.getAndIncrement(), 20, methods, stacks,
                    null);
            try {
                ByteBuffer value = batch.toByteBuffer();
                byte[] bytes = new byte[value.remaining()];
                value.get(bytes);
                producer.send(new ProducerRecord<>(topic, execution.key().getBytes(StandardCharsets.UTF_8), bytes)).get();
            } catch (Exception e) {
                throw new IllegalStateException("live sender failed", e); // ends the schedule; the test then times out
            }
            samples.addAndGet(3);
        }

        @Override
        public void close() throws InterruptedException {
            sender.shutdownNow();
            sender.awaitTermination(1, TimeUnit.MINUTES);
            producer.close();
        }
    }
}
