package io.cctflow.flink.sink;

import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.DeadLetterSerializer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Kafka producer per subtask; a send that fails, at once or in its callback, is counted and
 * logged, never thrown. Callbacks run on the producer's I/O thread, so the failure count is an
 * atomic read by the metric.
 */
final class DeadLetterWriter implements SinkWriter<DeadLetter> {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterWriter.class);

    private final KafkaProducer<byte[], byte[]> producer;
    private final DeadLetterSerializer serializer;
    private final Counter written;
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong lastWarningMillis = new AtomicLong();

    DeadLetterWriter(Map<String, Object> config, DeadLetterSerializer serializer, SinkWriterMetricGroup metrics) {
        Map<String, Object> all = new HashMap<>(config);
        all.put(ProducerConfig.ACKS_CONFIG, "all");
        // a missing topic or an unreachable broker costs this long per letter, not the producer's minute
        all.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
        this.producer = new KafkaProducer<>(all, new ByteArraySerializer(), new ByteArraySerializer());
        this.serializer = serializer;
        this.written = metrics.getNumRecordsSendCounter();
        metrics.gauge("deadLettersFailed", failed::get);
    }

    @Override
    public void write(DeadLetter letter, Context context) {
        try {
            producer.send(serializer.serialize(letter), (metadata, e) -> {
                if (e == null) {
                    written.inc();
                } else {
                    fail(letter, e);
                }
            });
        } catch (RuntimeException e) {
            fail(letter, e);
        }
    }

    private void fail(DeadLetter letter, Exception e) {
        failed.incrementAndGet();
        long now = System.currentTimeMillis();
        long last = lastWarningMillis.get();
        if (now - last >= 60_000 && lastWarningMillis.compareAndSet(last, now)) {
            LOG.warn("dead letter of {} not written ({} so far), the job goes on: {}", letter.record.origin(),
                    failed.get(), e.toString());
        }
    }

    @Override
    public void flush(boolean endOfInput) {
        producer.flush(); // failures were counted by the callbacks
    }

    @Override
    public void close() {
        producer.close();
    }
}
