package io.cctflow.servers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.servers.ServerStartException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ports a Kafka data directory resolves: picked free, remembered, and a busy requested port refused. */
class KafkaDataDirTest {
    @Test
    void aFreshDirectoryGetsTwoDistinctPortsThatAreFree(@TempDir Path dir) {
        KafkaDataDir.KafkaPorts ports = new KafkaDataDir(dir).resolvePorts(0, 0);
        assertThat(ports.broker()).isNotEqualTo(ports.controller());
        assertThat(Ports.isFree(ports.broker())).isTrue();
        assertThat(Ports.isFree(ports.controller())).isTrue();
    }

    @Test
    void aRequestedPortThatIsBusyIsRefusedNotReplaced(@TempDir Path dir) throws Exception {
        try (ServerSocket busy = new ServerSocket()) {
            busy.bind(new InetSocketAddress(InetAddress.getByName(Ports.LOOPBACK), 0));
            assertThatThrownBy(() -> new KafkaDataDir(dir).resolvePorts(busy.getLocalPort(), 0))
                    .isInstanceOf(ServerStartException.class)
                    .hasMessageContaining("Port " + busy.getLocalPort() + " on 127.0.0.1 is in use");
        }
    }
}
