package io.cctflow.bench.parcs;

import io.cctflow.core.ExecutionId;
import io.cctflow.schema.SampleBatch;
import io.cctflow.servers.TopicRecords;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** The batches one execution published, read back from the samples topic in sequence order. */
final class KafkaBatches {
    private KafkaBatches() {
    }

    static List<SampleBatch> of(String bootstrap, String topic, ExecutionId execution) throws IOException {
        String key = execution.key();
        List<SampleBatch> out = new ArrayList<>();
        List<ConsumerRecord<String, byte[]>> records;
        try {
            records = TopicRecords.read(bootstrap, topic, new StringDeserializer(), new ByteArrayDeserializer(),
                    Duration.ofMinutes(2));
        } catch (IllegalStateException e) {
            throw new IOException(e.getMessage(), e);
        }
        for (ConsumerRecord<String, byte[]> r : records) {
            if (key.equals(r.key()) && r.value() != null) {
                out.add(SampleBatch.getDecoder().decode(r.value()));
            }
        }
        out.sort(Comparator.comparingLong(SampleBatch::getSequence));
        return out;
    }
}
