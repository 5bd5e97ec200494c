package io.cctflow.agent.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.batch.BatchSink;
import io.cctflow.agent.log.AgentLog;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.schema.RecordSizes;
import io.cctflow.schema.SampleBatch;

/**
 * Publishes batches to Kafka, keyed by execution id ({@code io.cctflow.core.ExecutionId#key()}),
 * as Avro single-object encoded bytes, strictly in queue (sequence) order.
 *
 * <p>{@link #send} encodes the batch on the caller's thread (the flusher) and hands it to the
 * {@link SendQueue} without blocking; one daemon thread, {@value #THREAD_NAME}, sends the oldest
 * queued batch, waits for the broker's acknowledgement, and only then removes it and takes the
 * next. One record in flight at a time keeps the order trivially; a batch every flush interval
 * needs no more.
 *
 * <p>No duplicates: the producer is idempotent and its {@code delivery.timeout.ms} is
 * unbounded, so a record the producer accepted is retried by the producer itself (same
 * producer id and sequence, which the broker de-duplicates) for as long as the broker is away,
 * and is never given up and handed over a second time. Only a record the producer rejected
 * before accepting it (no metadata within {@code max.block.ms}, a retriable error) is sent again
 * by this class, after a jittered exponential backoff. A batch the broker refuses for good (too
 * large, not authorised) is dropped and counted. What is still queued at {@link #close} is
 * spilled for the next run when a spill directory is configured, else counted as dropped; a
 * batch in flight at that moment may then reach the broker twice (the consumer sees the same
 * sequence of the same execution again).
 *
 * <p>Other records (code manifests) go through the same code with {@link #sharingProducer}: a
 * second sender with its own topic, key, queue and counters that uses this sender's producer and
 * leaves closing it to this one.
 *
 * <p>Thread safety: {@link #send} and {@link #sendEncoded} may be called from any thread;
 * {@link #start} and {@link #close} from one controlling thread.
 */
public final class KafkaBatchSender implements BatchSink, AutoCloseable {
    /** Kafka client id of every agent, so broker quotas and logs can tell agents apart. */
    public static final String CLIENT_ID = "cctflow-agent";
    /** Name of the sender thread. */
    public static final String THREAD_NAME = "cctflow-sender";

    private static final long POLL_MILLIS = 100;
    /**
     * An idle sender sleeps until a batch arrives or {@link #close} wakes it
     * ({@link SendQueue#stopWaiting}), not {@link #POLL_MILLIS}: ten wake-ups a second of each
     * idle thread cost more CPU than the sampling. The bound only caps a lost wake-up.
     */
    private static final long IDLE_WAIT_MILLIS = 60_000;
    private static final long BACKOFF_INITIAL_MILLIS = 200;
    private static final long BACKOFF_MAX_MILLIS = 5_000;
    private static final long RECONNECT_BACKOFF_MILLIS = 500;
    /**
     * During a backoff the sender wakes this often to move overflow to disk; {@link #close} wakes
     * it at once. Not {@link #POLL_MILLIS}: a sender backing off for minutes while Kafka is away
     * should not wake ten times a second.
     */
    private static final long SPILL_CHECK_MILLIS = 1_000;
    /**
     * A broker that accepts connections but has taken no batch for this long is reported as slow.
     * Shorter waits are not: a fresh producer in a JVM that has just started on a busy machine
     * took 7 and 16 s for its first acknowledgement from a broker that was there (TransportIT at
     * load average 18 on 2 cores), many times the {@code max.block.ms} of one try.
     */
    static final long SLOW_BROKER_MILLIS = 30_000;
    private static final long NOT_FAILING = Long.MIN_VALUE;
    /** At close, stop waiting for the queue to drain when nothing was acknowledged this long. */
    private static final long DRAIN_STALL_MILLIS = 300;

    private final ProducerHolder producer;
    private final String topic;
    private final String key;
    private final SendQueue queue;
    private final AgentCounters counters;
    private final Backoff backoff;
    private final LongSupplier nanoClock;
    private final RateLimitedLog failures;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread thread;
    private final boolean ownsProducer;
    /** When the current run of retriable failures began, or {@link #NOT_FAILING}; sender thread only. */
    private long failingSinceNanos = NOT_FAILING;

    /**
     * Takes ownership of the producer and the queue. Does not contact the broker and does not
     * start the sender thread.
     *
     * @param random jitter of the backoff
     * @param nanoClock monotonic clock in nanoseconds, the same as the queue's
     */
    public KafkaBatchSender(Producer<String, byte[]> producer, String topic, String recordKey,
            SendQueue queue, AgentCounters counters, Random random, LongSupplier nanoClock,
            RateLimitedLog failures) {
        this(ProducerHolder.of(producer), topic, recordKey, queue, counters, random, nanoClock, failures);
    }

    /**
     * As above, with a producer the sender thread creates when it first sends, and again after a
     * failed creation ({@link ProducerHolder}): until then batches wait in the queue as they do
     * while the broker is away.
     */
    public KafkaBatchSender(ProducerHolder producer, String topic, String recordKey,
            SendQueue queue, AgentCounters counters, Random random, LongSupplier nanoClock,
            RateLimitedLog failures) {
        this(producer, true, topic, recordKey, queue, counters, random, nanoClock, failures,
                THREAD_NAME);
    }

    private KafkaBatchSender(ProducerHolder producer, boolean ownsProducer, String topic,
            String recordKey, SendQueue queue, AgentCounters counters, Random random,
            LongSupplier nanoClock, RateLimitedLog failures, String threadName) {
        this.producer = producer;
        this.ownsProducer = ownsProducer;
        this.topic = topic;
        this.key = recordKey;
        this.queue = queue;
        this.counters = counters;
        this.backoff = new Backoff(BACKOFF_INITIAL_MILLIS, BACKOFF_MAX_MILLIS, random);
        this.nanoClock = nanoClock;
        this.failures = failures;
        this.thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
    }

    /**
     * A sender of other records to {@code topic} under {@code recordKey}, through this sender's
     * producer, with its own queue, counters and thread ({@code threadName}). It never closes the
     * producer: close it before this sender.
     */
    public KafkaBatchSender sharingProducer(String topic, String recordKey, SendQueue queue,
            AgentCounters counters, String threadName) {
        return new KafkaBatchSender(producer, false, topic, recordKey, queue, counters, new Random(),
                nanoClock, failures, threadName);
    }

    /** The producer settings of the agent. */
    public static Properties producerProperties(String bootstrapServers) {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ProducerConfig.CLIENT_ID_CONFIG, CLIENT_ID);
        // Class objects, not names: the shade plugin relocates types but not strings
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        // no duplicates on retry; a gap in sequence numbers then means a real loss
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        // an accepted record is retried until it is acknowledged: an idempotent producer that
        // expires a record bumps its epoch, and sending the batch again could then duplicate it
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE);
        // pure Java: JNI codecs (zstd, snappy) cannot be relocated inside an agent jar
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip");
        // only the sender thread waits for metadata; after this it backs off and tries again
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 1_000);
        // while the broker is away its network thread waits this long between attempts to find
        // a node (Kafka's default is 50 ms), doubling up to the sender's own cap; a returning
        // broker is found within ~6 s (Kafka adds 20 % jitter)
        p.put(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, RECONNECT_BACKOFF_MILLIS);
        p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, BACKOFF_MAX_MILLIS);
        // the same between retries of a request, and of the idempotent producer's request for its
        // id, which it repeats while no broker answers (Kafka's default 100 ms: ten wake-ups a
        // second of its network thread, all the time Kafka is away)
        p.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, RECONNECT_BACKOFF_MILLIS);
        p.put(ProducerConfig.RETRY_BACKOFF_MAX_MS_CONFIG, BACKOFF_MAX_MILLIS);
        // no JMX metrics: in the host's MBean server a JMX exporter would report our producer as
        // one of the host's (its app-info MBeans, registered anyway, are moved out of Kafka's
        // domain by the agent jar's shading); the batches' own stats carry what the agent does
        p.put(ProducerConfig.METRIC_REPORTER_CLASSES_CONFIG, "");
        // nor to the brokers (KIP-714), where a fleet's agents would add a producer each to
        // whatever the operators collect about their clients
        p.put(ProducerConfig.ENABLE_METRICS_PUSH_CONFIG, false);
        // the agent's SendQueue is the buffer; the producer holds one record at a time
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 8L << 20);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 0);
        // the limit applies before compression; deep stacks make big batches, and the topics take
        // them whole (RecordSizes)
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, RecordSizes.MAX_RECORD_BYTES);
        return p;
    }

    /** Starts the sender thread. */
    public void start() {
        thread.start();
    }

    /** Encodes the batch and queues it; returns without waiting for Kafka. Never throws. */
    @Override
    public void send(SampleBatch batch) {
        byte[] value;
        try {
            value = toBytes(batch.toByteBuffer());
        } catch (IOException | RuntimeException e) {
            counters.batchDropped(0);
            failures.warn("batch " + batch.getSequence() + " dropped: could not encode it", e);
            return;
        }
        queue.offer(batch.getSequence(), value);
    }

    /**
     * Queues a record encoded by the caller, in {@code sequence} order; returns without waiting
     * for Kafka. Never throws.
     */
    public void sendEncoded(long sequence, byte[] value) {
        queue.offer(sequence, value);
    }

    private void run() {
        while (stopping.getCount() > 0) {
            try {
                sendNext();
            } catch (InterruptedException e) {
                return;
            } catch (Throwable t) {
                // the sender must keep going whatever happened to one batch
                failures.warn("sending failed", t);
                if (!pause(backoff.nextDelayMillis())) {
                    return;
                }
            }
        }
    }

    /** Sends the head of the queue and waits for the outcome. */
    private void sendNext() throws InterruptedException {
        queue.spillOverflow();
        QueuedBatch batch = queue.take(IDLE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        if (batch == null) {
            return;
        }
        byte[] value = queue.payload(batch);
        if (value == null) {
            return;
        }
        Future<RecordMetadata> result;
        try {
            result = producer.get().send(new ProducerRecord<>(topic, key, value));
        } catch (RuntimeException e) {
            // no producer yet (ProducerHolder.Unavailable, retriable), the producer is closed, or
            // it refused the record before accepting it
            onFailure(batch, e, true);
            return;
        }
        // the producer reports refusals before acceptance (no metadata, too large) as a future
        // that is already done; an accepted record needs a round trip to the broker
        boolean accepted = !result.isDone();
        while (true) {
            try {
                result.get(POLL_MILLIS, TimeUnit.MILLISECONDS);
                queue.acknowledge(batch);
                failingSinceNanos = NOT_FAILING;
                backoff.reset();
                return;
            } catch (TimeoutException e) {
                if (stopping.getCount() == 0) {
                    return; // the head stays queued, for spillAll
                }
                // the broker is away: the producer retries the record; keep memory bounded
                queue.spillOverflow();
            } catch (ExecutionException e) {
                onFailure(batch, e.getCause(), !accepted);
                return;
            }
        }
    }

    /** Retries a retriable failure after a backoff; drops the batch on any other. */
    private void onFailure(QueuedBatch batch, Throwable error, boolean neverAccepted) {
        if (stopping.getCount() == 0) {
            return; // closing aborted it: it stays queued, for spillAll
        }
        if (error instanceof RetriableException) {
            queue.retryLater(batch, !neverAccepted);
            long delay = backoff.nextDelayMillis();
            reportRetry(batch, error, delay, neverAccepted);
            pause(delay);
            return;
        }
        failures.warn(batch + " dropped: " + topic + " refused it", error);
        queue.dropHead(batch, "refused by Kafka: " + AgentLog.describe(error));
    }

    /**
     * Warns of a batch to be sent again: at once when no bootstrap server accepts connections
     * (Kafka is away), else only once the broker has taken nothing for {@link #SLOW_BROKER_MILLIS}
     * (it is there, but slow: a fresh producer's first metadata on a busy machine).
     */
    private void reportRetry(QueuedBatch batch, Throwable error, long delay, boolean neverAccepted) {
        long now = nanoClock.getAsLong();
        if (failingSinceNanos == NOT_FAILING) {
            failingSinceNanos = now;
        }
        String retrying = queue.size() + " batch(es) queued; retrying " + batch + " in " + delay + " ms"
                + (neverAccepted ? "" : " (it may arrive twice)");
        if (!producer.brokerAccepts()) {
            failures.warn("Kafka unreachable, " + retrying, error);
        } else if (now - failingSinceNanos >= TimeUnit.MILLISECONDS.toNanos(SLOW_BROKER_MILLIS)) {
            failures.warn("Kafka accepts connections but has taken no batch for "
                    + TimeUnit.NANOSECONDS.toSeconds(now - failingSinceNanos) + " s, " + retrying, error);
        }
    }

    /**
     * Waits, unless the sender is stopping; false if it is. Keeps spilling while it waits, so
     * memory stays within its bound during a long backoff.
     */
    private boolean pause(long millis) {
        long deadline = nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(millis);
        try {
            while (true) {
                queue.spillOverflow();
                long left = deadline - nanoClock.getAsLong();
                if (left <= 0) {
                    return true;
                }
                if (stopping.await(Math.min(left, TimeUnit.MILLISECONDS.toNanos(SPILL_CHECK_MILLIS)),
                        TimeUnit.NANOSECONDS)) {
                    return false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Sends what the broker takes while batches keep being acknowledged, then stops the sender
     * thread, closes the producer and spills (or counts as dropped) what is left, all within
     * {@code timeout}. Safe to call more than once.
     */
    public void close(Duration timeout) {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long deadline = nanoClock.getAsLong() + timeout.toNanos();
        try {
            if (thread.isAlive()) {
                queue.awaitDrained(deadline - timeout.toNanos() / 3, DRAIN_STALL_MILLIS);
            }
            stopping.countDown();
            queue.stopWaiting();
            if (ownsProducer) {
                // an in-flight record the broker does not take within this is aborted
                producer.close(Duration.ofNanos(Math.max(0, (deadline - nanoClock.getAsLong()) / 3)));
            }
            // the thread notices within one poll; a send() blocked on metadata ends with close()
            thread.join(Math.max(1, Math.min(2 * POLL_MILLIS,
                    TimeUnit.NANOSECONDS.toMillis(deadline - nanoClock.getAsLong()) / 2)));
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - nanoClock.getAsLong()) / 2));
            }
            if (thread.isAlive()) {
                failures.warn("the sender thread did not stop; " + queue.size() + " batch(es) lost");
            } else {
                int left = queue.size();
                queue.spillAll(deadline);
                queue.releaseSpillDirectory();
                if (left > 0) {
                    AgentLog.info(left + " unsent batch(es) at exit, " + (queue.spillDirectory() == null
                            ? "dropped"
                            : queue.size() + " of them in " + queue.spillDirectory() + " for the next run"));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failures.warn("closing the Kafka sender failed", e);
        }
    }

    /** Closes within 2 seconds. */
    @Override
    public void close() {
        close(Duration.ofSeconds(2));
    }

    private static byte[] toBytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
