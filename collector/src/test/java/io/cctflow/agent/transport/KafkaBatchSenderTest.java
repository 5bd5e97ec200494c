package io.cctflow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.core.ExecutionId;
import io.cctflow.schema.AgentStats;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;

/**
 * The sender's protocol against Kafka's own {@link MockProducer}, which lets a test decide when
 * and how each record completes. The real broker, its outages and the shaded jar are covered
 * by {@code TransportIT}.
 */
@Timeout(60)
class KafkaBatchSenderTest {
    private static final String KEY = new ExecutionId("shop", "v1", "host-1").key();

    private final AgentCounters counters = new AgentCounters();
    private final RateLimitedLog log = new RateLimitedLog(1, TimeUnit.MINUTES, System::nanoTime);
    private KafkaBatchSender sender;

    @TempDir
    Path spillRoot;

    @AfterEach
    void close() {
        if (sender != null) {
            sender.close(Duration.ofSeconds(1));
        }
    }

    private static SampleBatch batch(long sequence) {
        return SampleBatch.newBuilder()
                .setInstance(InstanceInfo.newBuilder().setService("shop").setVersion("v1")
                        .setInstanceId("host-1").setHost("host").setPid(1).setStartTimeMillis(0)
                        .build())
                .setWindowStartMillis(0)
                .setWindowEndMillis(10)
                .setSequence(sequence)
                .setSamplingPeriodMillis(20)
                .setMethods(List.of(new MethodRef("a.B", "c", "()V")))
                .setStacks(List.of(new Stack(List.of(0), List.of(0), "main", false, 1L)))
                .setStats(AgentStats.newBuilder().setSamplesSeen(1).setSamplesTruncated(0)
                        .setSamplesDropped(0).setBatchesSent(0).setBatchesDropped(0).setBytesSent(0)
                        .build())
                .build();
    }

    private static MockProducer<String, byte[]> producer(boolean autoComplete) {
        return new MockProducer<>(autoComplete, null, new StringSerializer(), new ByteArraySerializer());
    }

    private KafkaBatchSender sender(MockProducer<String, byte[]> producer, SendQueue queue) {
        sender = new KafkaBatchSender(producer, "cctflow.samples", KEY, queue, counters, new Random(1),
                System::nanoTime, log);
        return sender;
    }

    private SendQueue memoryQueue() {
        return SendQueue.inMemory(1 << 20, counters, log, System::nanoTime);
    }

    private static long sequenceOf(ProducerRecord<String, byte[]> record) throws Exception {
        return SampleBatch.fromByteBuffer(ByteBuffer.wrap(record.value())).getSequence();
    }

    @Test
    void sendsQueuedBatchesInOrderKeyedByExecutionOnANamedDaemonThread() throws Exception {
        MockProducer<String, byte[]> producer = producer(true);
        KafkaBatchSender s = sender(producer, memoryQueue());
        for (long i = 0; i < 3; i++) {
            s.send(batch(i));
        }
        s.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> counters.snapshot().getBatchesSent() == 3);

        List<ProducerRecord<String, byte[]>> sent = producer.history();
        assertThat(sent).extracting(r -> sequenceOf(r)).containsExactly(0L, 1L, 2L);
        assertThat(sent).allSatisfy(r -> {
            assertThat(r.topic()).isEqualTo("cctflow.samples");
            assertThat(r.key()).isEqualTo(KEY);
        });
        assertThat(SampleBatch.fromByteBuffer(ByteBuffer.wrap(sent.get(0).value()))).isEqualTo(batch(0));
        assertThat(counters.snapshot().getBytesSent())
                .isEqualTo(sent.stream().mapToLong(r -> r.value().length).sum());
        assertThat(Thread.getAllStackTraces().keySet()).anySatisfy(t -> {
            assertThat(t.getName()).isEqualTo(KafkaBatchSender.THREAD_NAME);
            assertThat(t.isDaemon()).isTrue();
        });
    }

    @Test
    void holdsTheNextBatchBackUntilTheBrokerAcknowledgedThePreviousOne() throws Exception {
        MockProducer<String, byte[]> producer = producer(false);
        KafkaBatchSender s = sender(producer, memoryQueue());
        s.send(batch(0));
        s.send(batch(1));
        s.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> producer.history().size() == 1);
        assertThat(producer.history()).hasSize(1);
        assertThat(producer.completeNext()).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> producer.history().size() == 2);
        assertThat(producer.completeNext()).isTrue();

        await().atMost(Duration.ofSeconds(30)).until(() -> counters.snapshot().getBatchesSent() == 2);
        assertThat(producer.history()).extracting(r -> sequenceOf(r)).containsExactly(0L, 1L);
    }

    @Test
    void retriesABatchTheProducerCouldNotAcceptWithoutSendingItTwice() throws Exception {
        RefusingProducer producer = new RefusingProducer(2);
        KafkaBatchSender s = sender(producer, memoryQueue());
        s.send(batch(0));
        s.send(batch(1));
        s.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> counters.snapshot().getBatchesSent() == 2);

        assertThat(producer.refusedSequences).as("refused before acceptance, then retried")
                .containsExactly(0L, 0L);
        assertThat(counters.snapshot().getBatchesDropped()).isZero();
        assertThat(producer.history()).extracting(r -> sequenceOf(r)).containsExactly(0L, 1L);
    }

    @Test
    void aProducerThatCannotBeCreatedYetIsCreatedByALaterTryAndNothingIsLost() throws Exception {
        MockProducer<String, byte[]> producer = producer(true);
        AtomicInteger attempts = new AtomicInteger();
        ProducerHolder holder = new ProducerHolder(() -> {
            if (attempts.incrementAndGet() <= 2) {
                // what KafkaProducer's constructor throws while no bootstrap server resolves
                throw new KafkaException("Failed to construct kafka producer",
                        new ConfigException("No resolvable bootstrap urls given in bootstrap.servers"));
            }
            return producer;
        }, "kafka.invalid:9092");
        sender = new KafkaBatchSender(holder, "cctflow.samples", KEY, memoryQueue(), counters, new Random(1),
                System::nanoTime, log);
        sender.send(batch(0));
        sender.send(batch(1));
        sender.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> counters.snapshot().getBatchesSent() == 2);

        assertThat(attempts).hasValue(3);
        assertThat(counters.snapshot().getBatchesDropped()).isZero();
        assertThat(producer.history()).extracting(r -> sequenceOf(r)).containsExactly(0L, 1L);
        sender.close(Duration.ofSeconds(1));
        assertThat(producer.closed()).as("the sender closes the producer it created").isTrue();
    }

    /**
     * A broker that is there but slow (a fresh producer's first metadata in a JVM that has just
     * started on a busy machine): the sender retries without calling Kafka unreachable.
     */
    @Test
    void aBatchRefusedWhileTheBrokerAcceptsConnectionsIsRetriedWithoutAWarning() throws Exception {
        RefusingProducer producer = new RefusingProducer(2);

        String err = stderrWhile(() -> sendOneBatch(ProducerHolder.of(producer, () -> true)));

        assertThat(producer.refusedSequences).as("refused twice, then sent").containsExactly(0L, 0L);
        assertThat(err).doesNotContain("WARN");
    }

    /** No bootstrap server accepts connections: reported at the first failure. */
    @Test
    void aBatchRefusedWhileNoBrokerAcceptsConnectionsIsReportedAsKafkaUnreachable() throws Exception {
        RefusingProducer producer = new RefusingProducer(1);

        String err = stderrWhile(() -> sendOneBatch(ProducerHolder.of(producer, () -> false)));

        assertThat(err).contains("[cctflow-agent] WARN Kafka unreachable, 1 batch(es) queued; retrying",
                "not present in metadata after 1000 ms");
    }

    /** A broker that accepts connections but takes nothing for long is reported as such. */
    @Test
    void aBrokerThatAcceptsConnectionsButTakesNothingForLongIsReported() throws Exception {
        AtomicLong skew = new AtomicLong();
        LongSupplier clock = () -> System.nanoTime() + skew.get();
        RefusingProducer producer = new RefusingProducer(2);
        AtomicInteger probes = new AtomicInteger();

        String err = stderrWhile(() -> {
            sender = new KafkaBatchSender(ProducerHolder.of(producer, () -> {
                        // the first failure starts the run of failures; the next comes past the bound
                        if (probes.incrementAndGet() == 1) {
                            skew.set(TimeUnit.MILLISECONDS.toNanos(KafkaBatchSender.SLOW_BROKER_MILLIS));
                        }
                        return true;
                    }), "cctflow.samples", KEY, SendQueue.inMemory(1 << 20, counters, log, clock), counters,
                    new Random(1), clock, log);
            sender.send(batch(0));
            sender.start();
            await().atMost(Duration.ofSeconds(30)).until(() -> counters.snapshot().getBatchesSent() == 1);
        });

        assertThat(probes).hasValue(2);
        assertThat(err).doesNotContain("Kafka unreachable")
                .containsOnlyOnce("[cctflow-agent] WARN Kafka accepts connections but has taken no batch for 30 s,");
    }

    /** Sends batch 0 through a sender of {@code holder}'s producer and waits for its acknowledgement. */
    private void sendOneBatch(ProducerHolder holder) {
        sender = new KafkaBatchSender(holder, "cctflow.samples", KEY, memoryQueue(), counters, new Random(1),
                System::nanoTime, log);
        sender.send(batch(0));
        sender.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> counters.snapshot().getBatchesSent() == 1);
    }

    private interface Action {
        void run() throws Exception;
    }

    /** What the agent writes to stderr (from any thread) while {@code action} runs. */
    private static String stderrWhile(Action action) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return err.toString(StandardCharsets.UTF_8);
    }

    /**
     * Refuses its first {@code refusals} records before accepting them, as {@code KafkaProducer}
     * does when no metadata arrives within {@code max.block.ms}: a future that has already
     * failed with a retriable {@link org.apache.kafka.common.errors.TimeoutException}, and
     * nothing in {@link #history()}.
     */
    private static final class RefusingProducer extends MockProducer<String, byte[]> {
        final List<Long> refusedSequences = new CopyOnWriteArrayList<>();
        private final AtomicInteger refusals;

        RefusingProducer(int refusals) {
            super(true, null, new StringSerializer(), new ByteArraySerializer());
            this.refusals = new AtomicInteger(refusals);
        }

        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<String, byte[]> record) {
            if (refusals.getAndDecrement() > 0) {
                try {
                    refusedSequences.add(sequenceOf(record));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                return CompletableFuture.failedFuture(new org.apache.kafka.common.errors.TimeoutException(
                        "Topic cctflow.samples not present in metadata after 1000 ms."));
            }
            return super.send(record);
        }
    }

    @Test
    void dropsAndCountsABatchTheBrokerRefusesForGoodAndGoesOn() throws Exception {
        MockProducer<String, byte[]> producer = producer(false);
        KafkaBatchSender s = sender(producer, memoryQueue());
        s.send(batch(0));
        s.send(batch(1));
        s.start();

        await().atMost(Duration.ofSeconds(30)).until(() -> producer.history().size() == 1);
        long refusedBytes = producer.history().get(0).value().length;
        producer.errorNext(new RecordTooLargeException("too large"));
        await().atMost(Duration.ofSeconds(30)).until(() -> producer.history().size() == 2);
        producer.completeNext();

        await().atMost(Duration.ofSeconds(30)).until(() -> counters.snapshot().getBatchesSent() == 1);
        assertThat(counters.snapshot().getBatchesDropped()).isEqualTo(1);
        assertThat(counters.snapshot().getBytesDropped()).isEqualTo(refusedBytes);
        assertThat(sequenceOf(producer.history().get(1))).isEqualTo(1);
    }

    @Test
    void closeSpillsTheUnacknowledgedBatchesForTheNextRun() throws Exception {
        MockProducer<String, byte[]> producer = producer(false);
        SendQueue queue = SendQueue.withSpill(1 << 20, spillRoot, KEY, 1 << 20, 1, counters, log,
                System::nanoTime);
        KafkaBatchSender s = sender(producer, queue);
        s.send(batch(0));
        s.send(batch(1));
        s.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> producer.history().size() == 1);

        s.close(Duration.ofSeconds(2));

        assertThat(producer.closed()).isTrue();
        assertThat(counters.snapshot().getBatchesDropped()).isZero();
        SendQueue nextRun = SendQueue.withSpill(1 << 20, spillRoot, KEY, 1 << 20, 2, counters, log,
                System::nanoTime);
        assertThat(nextRun.size()).isEqualTo(2);
        QueuedBatch first = nextRun.take(0, TimeUnit.MILLISECONDS);
        assertThat(SampleBatch.fromByteBuffer(ByteBuffer.wrap(nextRun.payload(first)))).isEqualTo(batch(0));
        try (var files = Files.list(queue.spillDirectory())) {
            assertThat(files.filter(f -> f.toString().endsWith(SpillDirectory.SUFFIX))).hasSize(2);
        }
    }

    @Test
    void closeIsBoundedWhenTheBrokerNeverAnswers() {
        MockProducer<String, byte[]> producer = producer(false);
        KafkaBatchSender s = sender(producer, memoryQueue());
        s.send(batch(0));
        s.start();
        await().atMost(Duration.ofSeconds(30)).until(() -> producer.history().size() == 1);

        long start = System.nanoTime();
        s.close(Duration.ofMillis(500));
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        // generous: a loaded machine may deschedule us, but not for seconds
        assertThat(tookMillis).isLessThan(3_000);
        assertThat(counters.snapshot().getBatchesDropped()).as("lost without a spill directory").isEqualTo(1);
    }

    @Test
    void producerSettingsNeverExpireAnAcceptedRecordAndPassSerializersAsClasses() {
        Properties p = KafkaBatchSender.producerProperties("k:9092");

        assertThat(p).contains(
                Map.entry("bootstrap.servers", "k:9092"),
                Map.entry("client.id", "cctflow-agent"),
                Map.entry("enable.idempotence", true),
                Map.entry("acks", "all"),
                Map.entry("delivery.timeout.ms", Integer.MAX_VALUE),
                Map.entry("compression.type", "gzip"),
                Map.entry("max.block.ms", 1_000),
                Map.entry("reconnect.backoff.ms", 500L),
                Map.entry("reconnect.backoff.max.ms", 5_000L),
                Map.entry("retry.backoff.ms", 500L),
                Map.entry("retry.backoff.max.ms", 5_000L),
                Map.entry("enable.metrics.push", false),
                Map.entry("linger.ms", 0),
                Map.entry("metric.reporters", ""),
                Map.entry("key.serializer", StringSerializer.class),
                Map.entry("value.serializer", ByteArraySerializer.class));
    }
}
