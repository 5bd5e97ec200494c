package io.cctflow.flink.ingest;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Writes a dead letter as the original key and value, with the reason and the origin in headers
 * ({@value #REASON_HEADER}, {@value #ORIGIN_HEADER}), so the record can be inspected or replayed
 * as it was.
 *
 * <p>A dead letter must fit the producer's {@code max.request.size} (1 MiB by default) and the
 * broker's {@code message.max.bytes}, while agents send batches of up to 4 MiB: a record that
 * cannot be written would fail the sink and, replayed, fail it again for ever. So a key longer than
 * {@value #MAX_KEY_BYTES} bytes, a reason longer than {@value #MAX_REASON_CHARS} characters and a
 * value beyond what is left of {@value #MAX_RECORD_BYTES} bytes are cut, and the cut record says so:
 * header {@value #TRUNCATED_HEADER} names what was cut, {@value #ORIGINAL_SIZE_HEADER} holds the
 * original value's size in bytes (decimal). Its origin still points at the whole record. Stateless.
 */
public final class DeadLetterSerializer implements Serializable {
    public static final String REASON_HEADER = "cctflow.error";
    public static final String ORIGIN_HEADER = "cctflow.origin";
    public static final String TRUNCATED_HEADER = "cctflow.truncated";
    public static final String ORIGINAL_SIZE_HEADER = "cctflow.original-size";
    /** Key, value and headers of a dead letter at most: under the producer's and broker's 1 MiB defaults. */
    static final int MAX_RECORD_BYTES = 1_000_000;
    static final int MAX_KEY_BYTES = 4_096;
    static final int MAX_REASON_CHARS = 4_096;
    private static final long serialVersionUID = 1L;

    private final String topic;

    public DeadLetterSerializer(String topic) {
        this.topic = topic;
    }

    public ProducerRecord<byte[], byte[]> serialize(DeadLetter letter) {
        RawRecord record = letter.record;
        String reason = letter.reason.length() > MAX_REASON_CHARS
                ? letter.reason.substring(0, MAX_REASON_CHARS) + "..." : letter.reason;
        byte[] key = record.key;
        byte[] value = record.value;
        StringBuilder cut = new StringBuilder();
        if (key != null && key.length > MAX_KEY_BYTES) {
            cut.append("key cut from ").append(key.length).append(" bytes; ");
            key = Arrays.copyOf(key, MAX_KEY_BYTES);
        }
        // what the headers take, with room for the truncation headers and Kafka's record overhead
        int room = MAX_RECORD_BYTES - (key == null ? 0 : key.length) - 4 * reason.length() - 1_024;
        if (value != null && value.length > room) {
            cut.append("value cut from ").append(value.length).append(" to ").append(room)
                    .append(" bytes to fit the producer's max.request.size");
            value = Arrays.copyOf(value, room);
        }
        RecordHeaders headers = new RecordHeaders();
        headers.add(REASON_HEADER, reason.getBytes(StandardCharsets.UTF_8));
        headers.add(ORIGIN_HEADER, record.origin().getBytes(StandardCharsets.UTF_8));
        if (cut.length() > 0) {
            headers.add(TRUNCATED_HEADER, cut.toString().getBytes(StandardCharsets.UTF_8));
            headers.add(ORIGINAL_SIZE_HEADER, Integer.toString(record.value == null ? 0 : record.value.length)
                    .getBytes(StandardCharsets.UTF_8));
        }
        return new ProducerRecord<>(topic, null, null, key, value, headers);
    }
}
