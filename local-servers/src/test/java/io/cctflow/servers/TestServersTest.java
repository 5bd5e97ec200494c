package io.cctflow.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

class TestServersTest {

    private static TestServers servers;

    @BeforeAll
    static void startServers() {
        servers = TestServers.get();
    }

    @Test
    void getReturnsTheSameStartedInstance() {
        assertThat(TestServers.get()).isSameAs(servers);
        assertThat(servers.kafkaBootstrapServers()).isNotBlank();
        assertThat(servers.neo4jUri()).startsWith("bolt://");
    }

    @Test
    void recordsProducedToACreatedTopicAreConsumed() throws Exception {
        String topic = "probe-" + UUID.randomUUID();
        servers.createTopic(topic, 2);
        servers.createTopic(topic, 2); // idempotent

        List<String> sent = List.of("a", "b", "c", "d", "e");
        try (KafkaProducer<String, String> producer = KafkaClients.producer(servers.kafkaBootstrapServers())) {
            for (String value : sent) {
                producer.send(new ProducerRecord<>(topic, value, value)).get();
            }
        }

        List<String> received = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                     KafkaClients.consumer(servers.kafkaBootstrapServers(), "g-" + UUID.randomUUID())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (received.size() < sent.size() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    received.add(record.value());
                }
            }
        }
        assertThat(received).as("records read back from topic %s", topic).containsExactlyInAnyOrderElementsOf(sent);
    }

    @Test
    void nodeWrittenThroughTheDriverIsReadBack() {
        String id = UUID.randomUUID().toString();
        try (Driver driver = servers.newDriver(); Session session = driver.session()) {
            session.executeWriteWithoutResult(tx -> tx.run("CREATE (:Probe {id: $id, n: 42})", Map.of("id", id)));
            long n = session.executeRead(tx -> tx.run("MATCH (p:Probe {id: $id}) RETURN p.n AS n", Map.of("id", id))
                    .single().get("n").asLong());
            assertThat(n).isEqualTo(42L);
        }
    }

    @Test
    void cleanNeo4jDeletesEveryNodeAndRelationship() {
        try (Driver driver = servers.newDriver(); Session session = driver.session()) {
            session.executeWriteWithoutResult(tx -> tx.run("CREATE (:A)-[:R]->(:B)"));
            servers.cleanNeo4j();
            long left = session.executeRead(tx -> tx.run("MATCH (n) RETURN count(n) AS c").single().get("c").asLong());
            assertThat(left).isZero();
        }
    }

    @Test
    void modeFromPropertyIsObeyedCaseInsensitively() {
        assertThat(TestServers.chooseMode(" Embedded ", () -> true).mode()).isEqualTo(TestServers.Mode.EMBEDDED);
        assertThat(TestServers.chooseMode("TESTCONTAINERS", () -> false).mode()).isEqualTo(TestServers.Mode.TESTCONTAINERS);
    }

    @Test
    void modeIsDetectedWhenNotConfigured() {
        assertThat(TestServers.chooseMode(null, () -> true).mode()).isEqualTo(TestServers.Mode.TESTCONTAINERS);
        assertThat(TestServers.chooseMode("", () -> false).mode()).isEqualTo(TestServers.Mode.EMBEDDED);
    }

    @Test
    void unknownModeIsRejectedNamingTheValidOnes() {
        assertThatThrownBy(() -> TestServers.chooseMode("docker", () -> true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'docker'")
                .hasMessageContaining("embedded")
                .hasMessageContaining("testcontainers");
    }
}
