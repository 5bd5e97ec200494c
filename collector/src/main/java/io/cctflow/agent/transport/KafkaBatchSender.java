package io.cctflow.agent.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Properties;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.batch.BatchSink;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.schema.SampleBatch;

/**
 * Publishes batches to Kafka, keyed by execution id ({@code io.cctflow.core.ExecutionId#key()}), as Avro single-object encoded bytes.
 *
 * <p>Never blocks the flusher for long and never throws: {@code max.block.ms} is small, so when
 * the broker is away or the producer's bounded buffer is full, {@code send} fails fast and the
 * batch is counted as dropped. Failures are logged at most once a minute.
 *
 * <p>Thread safety: safe for concurrent use ({@link KafkaProducer} is); delivery callbacks run
 * on the producer's I/O thread.
 */
public final class KafkaBatchSender implements BatchSink, AutoCloseable {
    /** Kafka client id of every agent, so broker quotas and logs can tell agents apart. */
    public static final String CLIENT_ID = "cctflow-agent";

    private final Producer<String, byte[]> producer;
    private final String topic;
    private final String key;
    private final AgentCounters counters;
    private final RateLimitedLog failures;

    /**
     * Creates the Kafka producer. Does not contact the broker.
     *
     * @throws org.apache.kafka.common.KafkaException if the producer cannot be created, e.g.
     *     when no bootstrap server resolves
     */
    public KafkaBatchSender(String bootstrapServers, String topic, String recordKey,
            AgentCounters counters) {
        this(new KafkaProducer<>(producerProperties(bootstrapServers)), topic, recordKey, counters,
                RateLimitedLog.perMinute());
    }

    /** Uses the given producer, which this sender then owns; for tests. */
    public KafkaBatchSender(Producer<String, byte[]> producer, String topic, String recordKey,
            AgentCounters counters, RateLimitedLog failures) {
        this.producer = producer;
        this.topic = topic;
        this.key = recordKey;
        this.counters = counters;
        this.failures = failures;
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
        // pure Java: JNI codecs (zstd, snappy) cannot be relocated inside an agent jar
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip");
        // send() waits at most this long for metadata or buffer space, then the batch is dropped
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 100);
        // the bound on what the agent buffers while the broker is away
        p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 16L << 20);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 100);
        // the limit applies before compression; deep stacks make big batches that gzip shrinks
        // well below the broker's message limit
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 << 20);
        return p;
    }

    @Override
    public void send(SampleBatch batch) {
        long sequence = batch.getSequence();
        byte[] value;
        try {
            value = toBytes(batch.toByteBuffer());
        } catch (IOException | RuntimeException e) {
            counters.batchDropped();
            failures.warn("batch " + sequence + " dropped: could not encode it", e);
            return;
        }
        try {
            producer.send(new ProducerRecord<>(topic, key, value), (metadata, error) -> {
                if (error == null) {
                    counters.batchSent(value.length);
                } else {
                    counters.batchDropped();
                    failures.warn("batch " + sequence + " dropped: delivery to " + topic + " failed", error);
                }
            });
        } catch (RuntimeException e) {
            // the producer is closed, or rejected the record before queueing it
            counters.batchDropped();
            failures.warn("batch " + sequence + " dropped", e);
        }
    }

    /** Flushes what it can within {@code timeout} and releases the producer. */
    public void close(Duration timeout) {
        try {
            producer.close(timeout);
        } catch (RuntimeException e) {
            failures.warn("closing the Kafka producer failed", e);
        }
    }

    /** Closes within 1 second. */
    @Override
    public void close() {
        close(Duration.ofSeconds(1));
    }

    private static byte[] toBytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }
}
