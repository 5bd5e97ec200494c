package io.cctflow.agent.transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Tells a Kafka that is away from one that is slow: whether any of the bootstrap servers accepts
 * a TCP connection now. The producer reports both the same way (no metadata within
 * {@code max.block.ms}); a fresh producer in a JVM that has just started on a busy machine often
 * needs several seconds for its first metadata from a broker that is there.
 *
 * <p>Stateless and thread-safe. Each call may block for a DNS lookup and up to
 * {@code timeoutMillis} per server.
 */
public final class BrokerProbe {
    private BrokerProbe() {
    }

    /**
     * @param bootstrapServers {@code host:port[,host:port...]}, as the producer's setting
     * @return whether any of them accepted a connection within {@code timeoutMillis}; false for a
     *     server that does not resolve or is not {@code host:port}
     */
    public static boolean anyAccepts(String bootstrapServers, int timeoutMillis) {
        for (String server : bootstrapServers.split(",")) {
            if (accepts(server.trim(), timeoutMillis)) {
                return true;
            }
        }
        return false;
    }

    private static boolean accepts(String server, int timeoutMillis) {
        int colon = server.lastIndexOf(':');
        if (colon <= 0) {
            return false;
        }
        String host = server.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1); // an IPv6 literal
        }
        int port;
        try {
            port = Integer.parseInt(server.substring(colon + 1));
        } catch (NumberFormatException e) {
            return false;
        }
        if (port < 1 || port > 65535) {
            return false;
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            return false;
        }
        try (Socket socket = new Socket()) {
            socket.connect(address, timeoutMillis);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
