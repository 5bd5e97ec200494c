package io.cctflow.flink.ingest;

import java.nio.charset.StandardCharsets;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Writes a dead letter as the original key and value, with the reason and the origin in headers
 * ({@value #REASON_HEADER}, {@value #ORIGIN_HEADER}), so the record can be inspected or replayed
 * as it was.
 */
public final class DeadLetterSerializer implements KafkaRecordSerializationSchema<DeadLetter> {
    public static final String REASON_HEADER = "cctflow.error";
    public static final String ORIGIN_HEADER = "cctflow.origin";
    private static final long serialVersionUID = 1L;

    private final String topic;

    public DeadLetterSerializer(String topic) {
        this.topic = topic;
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(DeadLetter letter, KafkaSinkContext context, Long timestamp) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(REASON_HEADER, letter.reason.getBytes(StandardCharsets.UTF_8));
        headers.add(ORIGIN_HEADER, letter.record.origin().getBytes(StandardCharsets.UTF_8));
        return new ProducerRecord<>(topic, null, null, letter.record.key, letter.record.value, headers);
    }
}
