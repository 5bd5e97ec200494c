package io.cctflow.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.cctflow.servers.internal.KafkaDataDir;
import io.cctflow.servers.internal.Ports;
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

    /**
     * Another process takes the broker's port after it was picked free and before the broker
     * binds it: the new directory is formatted again on other ports and the broker serves.
     */
    @Test
    void aPortTakenBeforeTheBrokerBindsItIsReplacedByAnother() throws Exception {
        List<KafkaDataDir.KafkaPorts> tried = new ArrayList<>();
        List<ServerSocket> taken = new ArrayList<>();
        try {
            KafkaServer.Builder builder = KafkaServer.builder(dataDir).beforeLaunch(ports -> {
                tried.add(ports);
                if (tried.size() == 1) {
                    taken.add(bind(ports.broker()));
                }
            });
            try (KafkaServer server = builder.start()) {
                assertThat(tried).as("ports of each launch").hasSize(2);
                assertThat(server.port()).isEqualTo(tried.get(1).broker()).isNotEqualTo(tried.get(0).broker());
                assertThat(Files.readString(dataDir.resolve(KafkaServer.LOG_FILE))).contains("Address already in use");
                server.createTopic("after-retry", 1, Map.of());
                try (KafkaProducer<String, String> producer = KafkaClients.producer(server.bootstrapServers())) {
                    producer.send(new ProducerRecord<>("after-retry", "k", "served")).get();
                }
                assertThat(readAll(server.bootstrapServers(), "after-retry", 1)).containsExactly("served");
            }
        } finally {
            for (ServerSocket socket : taken) {
                socket.close();
            }
        }
    }

    @Test
    void aSetPortThatIsTakenFailsWithoutRetrying() throws Exception {
        try (ServerSocket busy = bind(0)) {
            List<KafkaDataDir.KafkaPorts> tried = new ArrayList<>();
            assertThatThrownBy(() -> KafkaServer.builder(dataDir).port(busy.getLocalPort())
                    .beforeLaunch(tried::add).start())
                    .isInstanceOf(ServerStartException.class)
                    .hasMessageContaining("Port " + busy.getLocalPort() + " on 127.0.0.1 is in use")
                    .hasMessageContaining("LISTEN");
            assertThat(tried).as("no broker launched").isEmpty();
        }
    }

    private static ServerSocket bind(int port) {
        try {
            ServerSocket socket = new ServerSocket();
            socket.bind(new InetSocketAddress(InetAddress.getByName(Ports.LOOPBACK), port));
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
