package io.cctflow.servers;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads a whole topic, for tests and benchmarks that check what was published: every record from
 * the beginning of each partition up to the end offsets the partitions had when reading began,
 * without a consumer group (nothing is committed).
 */
public final class TopicRecords {
    private TopicRecords() {
    }

    /**
     * Every record of {@code topic}, partition after partition (partitions in the order the broker
     * lists them), each in log order; none for a topic the broker does not know.
     *
     * @throws IllegalStateException when the records up to the end offsets could not be read
     *     within {@code timeout}
     */
    public static <K, V> List<ConsumerRecord<K, V>> read(String bootstrapServers, String topic,
            Deserializer<K> keys, Deserializer<V> values, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        Map<TopicPartition, List<ConsumerRecord<K, V>>> byPartition = new LinkedHashMap<>();
        try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(p, keys, values)) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                return List.of();
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            partitions.forEach(tp -> byPartition.put(tp, new ArrayList<>()));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            while (!reached(consumer, end, timeout)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end offsets " + end
                            + " within " + timeout + " from " + bootstrapServers);
                }
                ConsumerRecords<K, V> polled = consumer.poll(Duration.ofMillis(200));
                // a partition's records come in log order, poll after poll
                byPartition.forEach((tp, list) -> list.addAll(polled.records(tp)));
            }
        }
        List<ConsumerRecord<K, V>> records = new ArrayList<>();
        byPartition.values().forEach(records::addAll);
        return records;
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end, Duration timeout) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), timeout) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
