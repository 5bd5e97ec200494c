package io.cctflow.agent;

import static io.cctflow.agent.ShippedJar.JAR;
import static io.cctflow.agent.ShippedJar.LOGS;
import static io.cctflow.agent.ShippedJar.TEST_CLASSES;
import static io.cctflow.agent.ShippedJar.java;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.cctflow.core.ExecutionId;
import io.cctflow.core.ThreadNames;
import io.cctflow.schema.AgentStats;
import io.cctflow.schema.CodeManifest;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import io.cctflow.servers.KafkaServer;
import io.cctflow.servers.TopicRecords;

/**
 * The shipped agent jar on a child JVM against a real broker that the test stops and restarts
 * on the same port: normal flow (gzip on the wire), an outage of several flushes (every batch
 * arrives once, in order), and an outage that overflows a small buffer (the oldest are dropped
 * and counted, the host is unaffected). The broker is this class's own {@link KafkaServer}, not
 * the shared fixture, because the tests stop it.
 */
@Timeout(120)
class TransportIT {
    private static final Path TARGET = JAR.getParent();
    private static final long FLUSH_MILLIS = 1_000;
    /** The agent times send latency on its nano clock, the test on the wall clock. */
    private static final long CLOCK_SLACK_MILLIS = 50;

    private static Path brokerDir;
    private static KafkaServer broker;

    @BeforeAll
    static void startBroker() throws IOException {
        brokerDir = Files.createTempDirectory(TARGET, "transport-it-kafka-");
        broker = KafkaServer.start(brokerDir);
    }

    /** A test that failed while the broker was down must not fail the next ones with it. */
    @AfterEach
    void restartBrokerIfDown() {
        if (!broker.isRunning()) {
            broker = KafkaServer.start(brokerDir);
        }
    }

    @AfterAll
    static void stopBroker() {
        if (broker != null) {
            broker.close();
        }
    }

    /** A host JVM with the agent; stdout and stderr go to files under it-logs. */
    private record Host(Process process, Path stdout, Path stderr, Path stopFile) {
        String err() throws IOException {
            return Files.readString(stderr, StandardCharsets.UTF_8);
        }

        String out() throws IOException {
            return Files.readString(stdout, StandardCharsets.UTF_8);
        }

        /** Lets the workload end and returns the exit code. */
        int stop() throws Exception {
            Files.writeString(stopFile, "stop");
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("host did not exit within 60 s of the stop file: " + err());
            }
            return process.exitValue();
        }
    }

    private static Host startHost(String name, String agentArgs) throws IOException {
        Files.createDirectories(LOGS);
        Path out = LOGS.resolve(name + ".stdout");
        Path err = LOGS.resolve(name + ".stderr");
        Path stop = LOGS.resolve(name + ".stop");
        Files.deleteIfExists(stop);
        List<String> command = List.of(java(),
                "-Xmx256m", "-javaagent:" + JAR + "=" + agentArgs, "-cp", TEST_CLASSES.toString(),
                StoppableWorkload.class.getName(), stop.toString(), "100");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new Host(p, out, err, stop);
    }

    private static String agentArgs(String topic, String instance, String extra) {
        return "bootstrap.servers=" + broker.bootstrapServers() + ",topic=" + topic
                + ",service=transport-it,version=v1,instance=" + instance + ",flush=" + FLUSH_MILLIS
                + ",period=10ms" + (extra.isEmpty() ? "" : "," + extra);
    }

    /** Every record of the topic, in log order, as (key, batch). */
    private static List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        return TopicRecords.read(broker.bootstrapServers(), topic, new StringDeserializer(),
                new ByteArrayDeserializer(), Duration.ofSeconds(30));
    }

    /**
     * The stats of the first batch built after every batch built during the outage was
     * acknowledged (batches are sent in sequence order, so {@code batchesSent} above the last such
     * sequence says so); empty while there is none, or no batch was built during the outage.
     */
    private static Optional<AgentStats> afterTheOutageWasAcknowledged(List<SampleBatch> batches, long stoppedAt,
            long restartingAt) {
        OptionalLong lastDuring = batches.stream()
                .filter(b -> b.getWindowEndMillis() > stoppedAt && b.getWindowEndMillis() < restartingAt)
                .mapToLong(SampleBatch::getSequence).max();
        if (lastDuring.isEmpty()) {
            return Optional.empty();
        }
        return batches.stream().map(SampleBatch::getStats)
                .filter(st -> st.getBatchesSent() > lastDuring.getAsLong()).findFirst();
    }

    private static List<SampleBatch> batches(String topic) throws IOException {
        List<SampleBatch> batches = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : readAll(topic)) {
            batches.add(SampleBatch.fromByteBuffer(ByteBuffer.wrap(r.value())));
        }
        return batches;
    }

    /**
     * A batch is self-contained: every frame is an index into its own method dictionary, each
     * stack has a line per frame and a positive count, and no two stacks are the same (frames,
     * lines, thread, truncated): the agent counts identical stacks once.
     */
    private static void assertWellFormed(SampleBatch b) {
        int methods = b.getMethods().size();
        Set<List<Object>> distinct = new HashSet<>();
        for (Stack s : b.getStacks()) {
            assertThat(s.getFrames()).as("frames of a stack of batch %d", b.getSequence()).isNotEmpty()
                    .allSatisfy(f -> assertThat(f).as("dictionary index").isBetween(0, methods - 1));
            assertThat(s.getLines()).as("a line per frame").hasSameSizeAs(s.getFrames());
            assertThat(s.getCount()).isPositive();
            assertThat(distinct.add(List.of(List.copyOf(s.getFrames()), List.copyOf(s.getLines()), s.getThread(),
                    s.getTruncated())))
                    .as("stack %s of batch %d is unique in it", s, b.getSequence()).isTrue();
        }
    }

    /** The distinct thread names of the batches' stacks. */
    private static List<String> threads(List<SampleBatch> batches) {
        return batches.stream().flatMap(b -> b.getStacks().stream()).map(Stack::getThread).distinct().toList();
    }

    private static List<Long> sequences(List<SampleBatch> batches) {
        return batches.stream().map(SampleBatch::getSequence).toList();
    }

    /** The sequence numbers below the newest received one that were not received. */
    private static List<Long> gaps(List<Long> received) {
        Set<Long> got = new HashSet<>(received);
        long max = received.get(received.size() - 1);
        return Stream.iterate(0L, i -> i + 1).limit(max).filter(i -> !got.contains(i)).toList();
    }

    /** Whether the newest batch's drop count equals the number of gaps before it, and there are some. */
    private static boolean countsEveryGap(List<SampleBatch> batches) {
        int gaps = gaps(sequences(batches)).size();
        return gaps > 0 && batches.get(batches.size() - 1).getStats().getBatchesDropped() == gaps;
    }

    /** The compression codec (attributes bits 0-2) of every record batch in the partition's log files. */
    private static List<Integer> codecsOnDisk(String topic) throws IOException {
        List<Integer> codecs = new ArrayList<>();
        List<Path> segments;
        try (Stream<Path> files = Files.list(brokerDir.resolve("logs").resolve(topic + "-0"))) {
            segments = files.filter(f -> f.toString().endsWith(".log")).sorted().toList();
        }
        for (Path segment : segments) {
            ByteBuffer log = ByteBuffer.wrap(Files.readAllBytes(segment)).order(ByteOrder.BIG_ENDIAN);
            // record batch v2: baseOffset int64, batchLength int32, partitionLeaderEpoch int32,
            // magic int8, crc int32, attributes int16
            int pos = 0;
            while (pos + 23 <= log.limit()) {
                int batchLength = log.getInt(pos + 8);
                if (batchLength <= 0) {
                    break;
                }
                assertThat(log.get(pos + 16)).as("magic of the batch at %d in %s", pos, segment).isEqualTo((byte) 2);
                codecs.add(log.getShort(pos + 21) & 0x7);
                pos += 12 + batchLength;
            }
        }
        return codecs;
    }

    @Test
    void normalFlowSendsEveryBatchOnceInOrderGzipCompressedWithTheAgentsStats() throws Exception {
        String topic = "transport-normal";
        broker.createTopic(topic, 1, Map.of());
        Host host = startHost("transport-normal", agentArgs(topic, "normal-1", ""));

        // both busy threads sampled (JFR samples a loaded machine's threads sparsely): the pool
        // thread, pool-1-thread-1, arrives under its normalised name or never; and a batch built
        // after one was acknowledged, whose stats show the send
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            List<SampleBatch> sofar = batches(topic);
            return sofar.size() >= 3 && threads(sofar).containsAll(List.of("main", "pool-#-thread-#"))
                    && sofar.get(sofar.size() - 1).getStats().getBatchesSent() > 0;
        });
        assertThat(host.stop()).as("exit code; stderr: %s", host.err()).isZero();

        List<ConsumerRecord<String, byte[]>> records = readAll(topic);
        List<SampleBatch> batches = batches(topic);
        assertThat(records).allSatisfy(r -> assertThat(r.key())
                .isEqualTo(new ExecutionId("transport-it", "v1", "normal-1").key()));
        List<Long> expected = Stream.iterate(0L, i -> i + 1).limit(batches.size()).toList();
        assertThat(sequences(batches)).isEqualTo(expected);
        assertThat(batches).allSatisfy(TransportIT::assertWellFormed);
        // thread names are normalised at the source
        assertThat(threads(batches)).contains("main", "pool-#-thread-#")
                .allSatisfy(t -> assertThat(ThreadNames.normalise(t)).as("normalised").isEqualTo(t));

        AgentStats last = batches.get(batches.size() - 1).getStats();
        long sampled = batches.stream().flatMap(b -> b.getStacks().stream()).mapToLong(Stack::getCount).sum();
        System.err.println("normal flow: " + batches.size() + " batches, " + sampled + " samples in them; the last"
                + " batch's stats: " + last);
        assertThat(sampled).as("samples in the batches").isPositive();
        // every sample seen went into a batch or was dropped (or is in a later window)
        assertThat(last.getSamplesSeen()).as("samples seen, by the last batch's stats")
                .isGreaterThanOrEqualTo(sampled + last.getSamplesDropped());
        assertThat(last.getBatchesSent()).as("acknowledged before the last batch was built")
                .isGreaterThanOrEqualTo(batches.size() - 3L);
        assertThat(last.getBytesSent()).isPositive();
        assertThat(last.getBatchesDropped()).isZero();
        // from queue to acknowledgement takes time: at least the round trip to the broker, and the
        // first batch waited for the producer's metadata and producer id besides
        assertThat(batches).map(SampleBatch::getStats).filteredOn(st -> st.getBatchesSent() > 0)
                .as("stats of batches built after a batch was acknowledged").isNotEmpty()
                .allSatisfy(st -> {
                    assertThat(st.getSendLatencyMillisMax()).as("latency max").isPositive();
                    assertThat(st.getSendLatencyMillisSum()).as("latency sum")
                            .isGreaterThanOrEqualTo(st.getSendLatencyMillisMax());
                });
        // the broker keeps the producer's codec (compression.type=producer): 1 is gzip
        assertThat(codecsOnDisk(topic)).isNotEmpty().containsOnly(1);
        assertThat(host.err()).doesNotContain("WARN", "NoClassDefFoundError");
        assertThat(host.out()).containsPattern("workload done [1-9]\\d* at");
    }

    @Test
    void anOutageOfSeveralFlushesLosesNothingAndDuplicatesNothing() throws Exception {
        String topic = "transport-outage";
        broker.createTopic(topic, 1, Map.of());
        Host host = startHost("transport-outage", agentArgs(topic, "outage-1", ""));
        await().atMost(Duration.ofSeconds(60)).until(() -> readAll(topic).size() >= 2);

        broker.close();
        long stoppedAt = System.currentTimeMillis();
        // the host keeps flushing into the agent's queue, once a second; the outage spans several
        // flush intervals (whether each made a batch depends on the host getting CPU)
        await().pollInterval(Duration.ofMillis(200)).atMost(Duration.ofSeconds(30))
                .until(() -> System.currentTimeMillis() - stoppedAt >= 5 * FLUSH_MILLIS);
        assertThat(host.process().isAlive()).as("host alive while Kafka is away").isTrue();
        long restartingAt = System.currentTimeMillis(); // nothing can be acknowledged before this
        broker = KafkaServer.start(brokerDir); // same data directory, same port
        long restartedAt = System.currentTimeMillis();
        await().atMost(Duration.ofSeconds(60)).until(() -> batches(topic).stream()
                .anyMatch(b -> b.getWindowStartMillis() >= restartedAt));
        // the batches built during the outage are acknowledged after it; the stats of a batch built
        // after that show how long they waited (the last batch received may have been built before)
        await().atMost(Duration.ofSeconds(60)).until(() -> afterTheOutageWasAcknowledged(
                batches(topic), stoppedAt, restartingAt).isPresent());
        assertThat(host.stop()).as("exit code; stderr: %s", host.err()).isZero();

        List<SampleBatch> batches = batches(topic);
        List<Long> expected = Stream.iterate(0L, i -> i + 1).limit(batches.size()).toList();
        assertThat(sequences(batches)).as("every sequence exactly once, in order").isEqualTo(expected);
        List<SampleBatch> builtDuringOutage = batches.stream()
                .filter(b -> b.getWindowEndMillis() > stoppedAt && b.getWindowEndMillis() < restartingAt)
                .toList();
        System.err.println("outage of " + (restartedAt - stoppedAt) + " ms: " + builtDuringOutage.size()
                + " batches built during it, the first at +"
                + (builtDuringOutage.isEmpty() ? "-" : builtDuringOutage.get(0).getWindowEndMillis() - stoppedAt)
                + " ms, " + batches.size() + " in all");
        // every flush makes a batch (a stats-only heartbeat when nothing was sampled), but a starved
        // host (a loaded machine) may flush late: before heartbeats, at load 13 on 2 cores, one
        // batch in 11 s was seen; so the outage's length is guaranteed by the wait above, and the
        // count only needs one batch that had to wait
        assertThat(builtDuringOutage).as("batches built while the broker was away").isNotEmpty();
        AgentStats last = batches.get(batches.size() - 1).getStats();
        assertThat(last.getBatchesDropped()).isZero();
        // the first batch built during the outage was queued when its window closed and could
        // not be acknowledged before the broker began to start again: it waited at least the rest
        // of the outage (a starved host may build it late, so the outage's own length is no bound)
        long firstQueuedAt = builtDuringOutage.get(0).getWindowEndMillis();
        AgentStats after = afterTheOutageWasAcknowledged(batches, stoppedAt, restartingAt).orElseThrow();
        assertThat(after.getSendLatencyMillisMax()).as("a batch waited out the outage")
                .isGreaterThanOrEqualTo(restartingAt - firstQueuedAt - CLOCK_SLACK_MILLIS);
        assertThat(host.out()).containsPattern("workload done [1-9]\\d* at");
    }

    @Test
    void aBufferOverflowDropsTheOldestCountsThemAndLeavesTheHostAlone() throws Exception {
        String topic = "transport-overflow";
        broker.createTopic(topic, 1, Map.of());
        broker.close();
        // a buffer of a few batches: the agent starts while the broker is away
        Host host = startHost("transport-overflow", agentArgs(topic, "overflow-1", "buffer=4k"));
        await().atMost(Duration.ofSeconds(60)).until(() -> host.err().contains("dropped: the send buffer"));
        assertThat(host.process().isAlive()).as("host alive while Kafka is away").isTrue();

        broker = KafkaServer.start(brokerDir);
        // A batch's stats are taken when it is built, before offering it drops older ones: the
        // drops its own arrival caused show in the next batch. Once the queue drains, drops stop,
        // and a batch built after that counts every missing sequence; wait for it (a drop that is
        // never counted, or counted twice, never gets there).
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            List<SampleBatch> sofar = batches(topic);
            return !sofar.isEmpty() && countsEveryGap(sofar);
        });
        assertThat(host.stop()).as("exit code; stderr: %s", host.err()).isZero();

        List<SampleBatch> batches = batches(topic);
        List<Long> received = sequences(batches);
        assertThat(received).as("in order, none twice").isSorted().doesNotHaveDuplicates();
        List<Long> missing = gaps(received);
        System.err.println("overflow: received " + received + ", missing " + missing);
        assertThat(missing).as("dropped sequences").isNotEmpty();
        // the oldest go first: while the broker is away nothing leaves the queue, so older than the
        // first batch dropped is at most the one the producer was holding. Later gaps need not
        // follow it: once the broker is back, a starved sender can still hold a head in flight
        // over two flushes, and the drop that makes room is then newer than batches already sent
        // (seen here: received [9, 11, 12, ...], missing [0, ..., 8, 10])
        long firstMissing = missing.get(0);
        assertThat(received.stream().filter(s -> s < firstMissing).count())
                .as("received before the first dropped batch").isLessThanOrEqualTo(1);
        AgentStats last = batches.get(batches.size() - 1).getStats();
        assertThat(last.getBatchesDropped()).as("counted in a later batch's stats").isEqualTo(missing.size());
        assertThat(last.getBytesDropped()).isPositive();
        assertThat(host.out()).containsPattern("workload done [1-9]\\d* at");
    }

    @Test
    void batchesAndManifestsSpilledWhileKafkaIsAwayAndAtExitAreSentFirstByTheNextRunOfTheSameInstance()
            throws Exception {
        String topic = "transport-spill";
        String manifestTopic = "transport-spill-manifests";
        broker.createTopic(topic, 1, Map.of());
        broker.createTopic(manifestTopic, 1, Map.of());
        broker.close();
        Path spillDir = Files.createTempDirectory(TARGET, "transport-it-spill-");
        // the workload's own classes (io.cctflow.agent) fingerprinted, the bundled libraries not
        String args = agentArgs(topic, "spill-1", "buffer=2k,spill.dir=" + spillDir
                + ",manifest.topic=" + manifestTopic
                + ",manifest.exclude=java.,javax.,jdk.,sun.,com.sun.,io.cctflow.agent.shaded.");
        Host first = startHost("transport-spill-run1", args);
        // overflow of the small buffer goes to disk while the broker is away
        await().atMost(Duration.ofSeconds(60)).until(() -> spillFiles(spillDir, false).size() >= 3);
        assertThat(first.stop()).as("exit code; stderr: %s", first.err()).isZero();
        long firstExitedAt = System.currentTimeMillis();
        assertThat(first.err()).containsPattern("(\\d+) unsent batch\\(es\\) at exit, \\1 of them in .* for the next run");
        int spilled = spillFiles(spillDir, false).size();
        // the workload's classes were fingerprinted, but their manifests never left: spilled at exit
        int spilledManifests = spillFiles(spillDir, true).size();
        assertThat(spilledManifests).as("manifests spilled by run 1").isPositive();

        broker = KafkaServer.start(brokerDir);
        Host second = startHost("transport-spill-run2", args);
        long secondStartedAt = System.currentTimeMillis();
        await().atMost(Duration.ofSeconds(60)).until(() -> batches(topic).stream()
                .anyMatch(b -> b.getWindowStartMillis() >= secondStartedAt)
                && readAll(manifestTopic).size() > spilledManifests);
        assertThat(second.stop()).as("exit code; stderr: %s", second.err()).isZero();

        assertThat(second.err()).contains(spilled + " batch(es) spilled by an earlier run of this execution"
                + " will be sent first");
        assertThat(second.err()).contains(spilledManifests + " manifest(s) spilled by an earlier run of this"
                + " execution will be sent first");
        List<SampleBatch> batches = batches(topic);
        System.err.println("spill: " + spilled + " batches and " + spilledManifests
                + " manifests spilled by run 1, " + batches.size() + " batches received");
        List<SampleBatch> run1 = batches.subList(0, spilled);
        List<SampleBatch> run2 = batches.subList(spilled, batches.size());
        assertThat(run1).as("the first run's batches come first")
                .allSatisfy(b -> assertThat(b.getWindowEndMillis()).isLessThanOrEqualTo(firstExitedAt));
        assertThat(run2).allSatisfy(b -> assertThat(b.getWindowStartMillis()).isGreaterThan(firstExitedAt));
        assertThat(sequences(run1)).as("nothing of the first run was lost or sent twice")
                .isEqualTo(Stream.iterate(0L, i -> i + 1).limit(run1.size()).toList());
        assertThat(sequences(run2)).isEqualTo(Stream.iterate(0L, i -> i + 1).limit(run2.size()).toList());
        assertThat(run1.get(run1.size() - 1).getStats().getBatchesDropped()).isZero();

        // manifests: run 1's (sequences from 0) first, then run 2's own, from 0 again
        List<Long> manifestSequences = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : readAll(manifestTopic)) {
            manifestSequences.add(CodeManifest.fromByteBuffer(ByteBuffer.wrap(r.value())).getSequence());
        }
        assertThat(manifestSequences.subList(0, spilledManifests)).as("run 1's manifests, in order, once")
                .isEqualTo(Stream.iterate(0L, i -> i + 1).limit(spilledManifests).toList());
        assertThat(manifestSequences.get(spilledManifests)).as("run 2's first manifest").isZero();
        assertThat(spillFiles(spillDir, false)).as("sent batches leave no spill file").isEmpty();
        assertThat(spillFiles(spillDir, true)).as("sent manifests leave no spill file").isEmpty();
    }

    /** The spill files under {@code root}: of code manifests, or else of sample batches. */
    private static List<Path> spillFiles(Path root, boolean manifests) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> f.toString().endsWith(".batch"))
                    .filter(f -> f.getParent().getFileName().toString().contains("_manifests-") == manifests)
                    .toList();
        }
    }
}
