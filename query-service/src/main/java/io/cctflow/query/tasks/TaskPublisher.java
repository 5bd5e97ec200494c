package io.cctflow.query.tasks;

import io.cctflow.model.TaskDefinitionRecord;
import io.cctflow.schema.TaskDefinition;
import io.cctflow.schema.TaskMatchType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Publishes task definitions to the compacted task topic the samples job reads: the Avro {@code
 * TaskDefinition} in single-object encoding, keyed by its id (UTF-8), and a tombstone (null value)
 * to delete one. Each call waits for the broker's acknowledgement. The Kafka producer is created
 * at the first publish, not before: an idempotent producer connects at once and, while the broker
 * is unreachable, logs a warning at every retry, so a query service whose task API is never used
 * must not hold one. Thread-safe (one producer).
 */
public final class TaskPublisher implements AutoCloseable {
    /** The longest a publish waits for the broker. */
    static final Duration TIMEOUT = Duration.ofSeconds(15);

    private final String bootstrapServers;
    private final String topic;
    private KafkaProducer<byte[], byte[]> producer; // guarded by this
    private boolean closed; // guarded by this

    public TaskPublisher(String bootstrapServers, String topic) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
    }

    private synchronized KafkaProducer<byte[], byte[]> producer() throws PublishException {
        if (closed) {
            throw new PublishException("the task publisher is closed", null);
        }
        if (producer == null) {
            producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                    ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                    ProducerConfig.MAX_BLOCK_MS_CONFIG, TIMEOUT.toMillis(),
                    ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis(),
                    ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis() - 1000),
                    new ByteArraySerializer(), new ByteArraySerializer());
        }
        return producer;
    }

    public String topic() {
        return topic;
    }

    /** Publishes a (validated) definition; returns when the broker acknowledged it. */
    public void publish(TaskDefinitionRecord d) throws PublishException {
        TaskDefinition wire = TaskDefinition.newBuilder().setId(d.id()).setService(d.service())
                .setMatchType(TaskMatchType.valueOf(d.matchType().name())).setPattern(d.pattern())
                .setNameTemplate(d.nameTemplate()).setUpdatedMillis(d.updatedMillis()).build();
        ByteBuffer buffer;
        try {
            buffer = wire.toByteBuffer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] value = new byte[buffer.remaining()];
        buffer.get(value);
        send(d.id(), value);
    }

    /** Publishes the tombstone of a definition id. */
    public void delete(String id) throws PublishException {
        send(id, null);
    }

    private void send(String id, byte[] value) throws PublishException {
        try {
            producer().send(new ProducerRecord<>(topic, id.getBytes(StandardCharsets.UTF_8), value))
                    .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishException("interrupted while publishing to " + topic, e);
        } catch (ExecutionException | TimeoutException | org.apache.kafka.common.KafkaException e) {
            throw new PublishException("could not publish to Kafka topic '" + topic + "': "
                    + (e.getCause() != null ? e.getCause().getMessage() : e.getMessage()), e);
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
    }

    /** The broker did not acknowledge in time, or refused. */
    public static final class PublishException extends Exception {
        private static final long serialVersionUID = 1L;

        PublishException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
