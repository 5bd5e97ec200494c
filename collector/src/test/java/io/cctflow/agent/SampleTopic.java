package io.cctflow.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import io.cctflow.core.ExecutionId;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import io.cctflow.servers.TestServers;

/** Reads sample batches back from a topic of the shared test broker. */
public final class SampleTopic {
    private SampleTopic() {
    }

    /**
     * Polls {@code topic} from its start until {@code done} holds for the batches read, failing
     * when it does not within {@code atMost}; checks every record is keyed by its batch's execution.
     */
    public static List<SampleBatch> readUntil(String topic, Predicate<List<SampleBatch>> done, Duration atMost) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestServers.get().kafkaBootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        List<SampleBatch> batches = new ArrayList<>();
        long deadline = System.nanoTime() + atMost.toNanos();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p)) {
            consumer.subscribe(List.of(topic));
            while (!done.test(batches) && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    SampleBatch batch = decode(r.value());
                    var info = batch.getInstance();
                    assertThat(r.key()).as("record key of batch %d", batch.getSequence())
                            .isEqualTo(new ExecutionId(info.getService(), info.getVersion(), info.getInstanceId()).key());
                    batches.add(batch);
                }
            }
        }
        assertThat(done.test(batches)).as("batches on %s within %s: %s read", topic, atMost, batches.size())
                .isTrue();
        return batches;
    }

    /** The samples the batches hold. */
    public static long samples(List<SampleBatch> batches) {
        return batches.stream().flatMap(b -> b.getStacks().stream()).mapToLong(Stack::getCount).sum();
    }

    private static SampleBatch decode(byte[] value) {
        try {
            return SampleBatch.fromByteBuffer(ByteBuffer.wrap(value));
        } catch (IOException e) {
            throw new AssertionError("not a SampleBatch", e);
        }
    }
}
