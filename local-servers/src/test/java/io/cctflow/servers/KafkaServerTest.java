package io.cctflow.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class KafkaServerTest {

    @TempDir
    Path dataDir;

    @Test
    void restartOnTheSameDataDirectoryKeepsRecordsAndPorts() throws Exception {
        int port;
        int controllerPort;
        try (KafkaServer first = KafkaServer.start(dataDir)) {
            System.err.println("first Kafka start (with format): " + first.startupTime().toMillis() + " ms");
            port = first.port();
            controllerPort = first.controllerPort();
            first.createTopic("kept", 1, Map.of("retention.ms", "-1"));
            try (KafkaProducer<String, String> producer = KafkaClients.producer(first.bootstrapServers())) {
                producer.send(new ProducerRecord<>("kept", "k", "written before restart")).get();
            }
            assertThatThrownBy(() -> KafkaServer.start(dataDir))
                    .as("a second broker on a running data directory")
                    .isInstanceOf(ServerStartException.class)
                    .hasMessageContaining("Port " + port + " on 127.0.0.1 is in use")
                    .hasMessageContaining("still running");
        }
        assertThat(Files.readString(dataDir.resolve(KafkaServer.PORTS_FILE))).contains(Integer.toString(port));

        try (KafkaServer second = KafkaServer.start(dataDir)) {
            System.err.println("second Kafka start (restart): " + second.startupTime().toMillis() + " ms");
            assertThat(second.port()).isEqualTo(port);
            assertThat(second.controllerPort()).isEqualTo(controllerPort);
            second.createTopic("kept", 1, Map.of()); // exists: no error
            assertThat(readAll(second.bootstrapServers(), "kept", 1)).containsExactly("written before restart");

            long stopStart = System.nanoTime();
            second.close();
            System.err.println("Kafka stop: " + (System.nanoTime() - stopStart) / 1_000_000 + " ms");
            second.close(); // idempotent
            assertThat(second.isRunning()).isFalse();
        }

        int other = controllerPort == 65000 ? 65001 : 65000;
        assertThatThrownBy(() -> KafkaServer.builder(dataDir).controllerPort(other).start())
                .as("a formatted data directory keeps its controller port")
                .isInstanceOf(ServerStartException.class)
                .hasMessageContaining("controller port " + controllerPort)
                .hasMessageContaining(dataDir.toString());
    }

    @Test
    void brokerThatExitsWhileStartingIsReportedWithTheEndOfItsLog() throws IOException {
        // a meta.properties for another node: no format, and the broker refuses the directory
        Path logs = Files.createDirectories(dataDir.resolve("logs"));
        Files.writeString(logs.resolve("meta.properties"),
                "version=1\nnode.id=99\ncluster.id=AAAAAAAAAAAAAAAAAAAAAA\ndirectory.id=AAAAAAAAAAAAAAAAAAAAAQ\n");

        assertThatThrownBy(() -> KafkaServer.start(dataDir))
                .isInstanceOf(ServerStartException.class)
                .hasMessageContaining("Kafka exited with code")
                .hasMessageContaining("last lines of " + dataDir.resolve(KafkaServer.LOG_FILE))
                .hasMessageContaining("99");
    }

    private static List<String> readAll(String bootstrapServers, String topic, int expected) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = KafkaClients.consumer(bootstrapServers, "reader-" + topic)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
        }
        return values;
    }
}
