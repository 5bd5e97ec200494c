package io.cctflow.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;

class TopicRecordsTest {

    @Test
    void readsEveryPartitionToItsEndEachInLogOrder() throws Exception {
        TestServers servers = TestServers.get();
        String topic = "records-" + UUID.randomUUID();
        servers.createTopic(topic, 2);
        try (KafkaProducer<String, String> producer = KafkaClients.producer(servers.kafkaBootstrapServers())) {
            for (int i = 0; i < 40; i++) {
                producer.send(new ProducerRecord<>(topic, i % 2, "k" + i % 2, Integer.toString(i))).get();
            }
        }

        List<ConsumerRecord<String, String>> records = TopicRecords.read(servers.kafkaBootstrapServers(), topic,
                new StringDeserializer(), new StringDeserializer(), Duration.ofSeconds(30));

        assertThat(records).hasSize(40);
        // one partition after the other, each in the order sent
        int first = records.get(0).partition();
        assertThat(records.subList(0, 20)).allMatch(r -> r.partition() == first);
        assertThat(records.subList(20, 40)).allMatch(r -> r.partition() == 1 - first);
        for (List<ConsumerRecord<String, String>> partition : List.of(records.subList(0, 20), records.subList(20, 40))) {
            assertThat(partition).extracting(ConsumerRecord::offset)
                    .containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L,
                            18L, 19L);
            assertThat(partition).extracting(r -> Integer.parseInt(r.value())).isSorted();
        }
    }

    @Test
    void aTopicTheBrokerDoesNotKnowHasNoRecords() {
        TestServers servers = TestServers.get();

        assertThat(TopicRecords.read(servers.kafkaBootstrapServers(), "absent-" + UUID.randomUUID(),
                new StringDeserializer(), new StringDeserializer(), Duration.ofSeconds(30))).isEmpty();
    }
}
