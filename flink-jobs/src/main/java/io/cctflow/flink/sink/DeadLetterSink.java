package io.cctflow.flink.sink;

import io.cctflow.flink.ingest.DeadLetter;
import io.cctflow.flink.ingest.DeadLetterSerializer;
import java.util.Map;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Writes dead letters to their Kafka topic ({@link DeadLetterSerializer}: cut to fit) and never
 * fails the job: a dead letter that cannot be written is counted ({@code deadLettersFailed}) and
 * logged, at most once a minute, and the job goes on. Flink's Kafka sink fails the task on any
 * failed send, and the restarted job replays the record that caused it, so one unwritable dead
 * letter kept the job restarting. Delivery is at least once for the letters that can be written:
 * each checkpoint waits until the letters before it are acknowledged.
 */
public final class DeadLetterSink implements Sink<DeadLetter> {
    private static final long serialVersionUID = 1L;

    private final String bootstrapServers;
    private final DeadLetterSerializer serializer;

    public DeadLetterSink(String bootstrapServers, String topic) {
        this.bootstrapServers = bootstrapServers;
        this.serializer = new DeadLetterSerializer(topic);
    }

    @Override
    public SinkWriter<DeadLetter> createWriter(WriterInitContext context) {
        return new DeadLetterWriter(Map.of("bootstrap.servers", bootstrapServers), serializer, context.metricGroup());
    }
}
