package io.cctflow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

/** Real sockets on the loopback interface. */
class BrokerProbeTest {
    private static ServerSocket listening() throws IOException {
        return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /** A port nothing listens on: one that was just listened on and closed. */
    private static int closedPort() throws IOException {
        try (ServerSocket s = listening()) {
            return s.getLocalPort();
        }
    }

    @Test
    void aServerThatListensAccepts() throws IOException {
        try (ServerSocket server = listening()) {
            assertThat(BrokerProbe.anyAccepts("127.0.0.1:" + server.getLocalPort(), 1_000)).isTrue();
        }
    }

    @Test
    void anyOfSeveralServersIsEnough() throws IOException {
        try (ServerSocket server = listening()) {
            assertThat(BrokerProbe.anyAccepts("127.0.0.1:" + closedPort() + ", localhost:" + server.getLocalPort(),
                    1_000)).isTrue();
        }
    }

    @Test
    void aPortNothingListensOnDoesNotAccept() throws IOException {
        assertThat(BrokerProbe.anyAccepts("127.0.0.1:" + closedPort(), 1_000)).isFalse();
    }

    @Test
    void serversThatDoNotResolveOrAreNotHostAndPortDoNotAccept() {
        assertThat(BrokerProbe.anyAccepts("kafka.cctflow.invalid:9092", 1_000)).isFalse();
        assertThat(BrokerProbe.anyAccepts("localhost", 1_000)).isFalse();
        assertThat(BrokerProbe.anyAccepts("localhost:http", 1_000)).isFalse();
        assertThat(BrokerProbe.anyAccepts("localhost:0", 1_000)).isFalse();
        assertThat(BrokerProbe.anyAccepts("localhost:70000", 1_000)).isFalse();
    }
}
