package io.cctflow.servers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/** What holds a port, as Linux's socket tables tell it. */
class PortHoldersTest {

    @Test
    void aListeningPortAndItsConnectionsAreNamedAFreeOneIsNot() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getByName(Ports.LOOPBACK), 0));
            int port = server.getLocalPort();
            assertThat(PortHolders.describe(port)).startsWith("sockets on port " + port).contains("LISTEN");
            try (Socket client = new Socket(Ports.LOOPBACK, port); Socket accepted = server.accept()) {
                assertThat(PortHolders.describe(client.getLocalPort()))
                        .contains("ESTABLISHED with remote port " + port);
            }
        }
        int free = Ports.free();
        assertThat(PortHolders.describe(free)).isEqualTo("no TCP socket on port " + free + " now");
    }

    @Test
    void aTableLineIsReadByItsFields() {
        String listen = "   0: 0100007F:A0CB 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 123 1";
        assertThat(PortHolders.holder(listen, 0xA0CB)).isEqualTo("LISTEN (uid 0, inode 123)");
        assertThat(PortHolders.holder(listen, 0xA0CC)).isNull();
        assertThat(PortHolders.holder("  sl  local_address rem_address   st", 0xA0CB)).isNull();
    }
}
