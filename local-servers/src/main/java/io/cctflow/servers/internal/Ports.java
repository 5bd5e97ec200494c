package io.cctflow.servers.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Picks TCP ports on the loopback interface. */
public final class Ports {

    public static final String LOOPBACK = "127.0.0.1";
    /**
     * Every port this JVM handed out: the kernel may give a port just closed to the next bind, so
     * two servers starting side by side (Kafka and Neo4j of the shared test fixture) could each be
     * handed the same one and the second fail to bind it. A port is handed out at most once.
     */
    private static final Set<Integer> ISSUED = ConcurrentHashMap.newKeySet();

    private Ports() {
    }

    /**
     * Returns {@code count} distinct ports that were free a moment ago. All sockets are held
     * open until every port is chosen, so the ports differ from each other, and none was handed
     * out by this JVM before ({@link #ISSUED}); another process may still take one before the
     * caller binds it.
     */
    public static int[] free(int count) {
        List<ServerSocket> sockets = new ArrayList<>(count);
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; ) {
                ServerSocket socket = new ServerSocket();
                sockets.add(socket); // one handed out before stays bound, so the next bind gets another
                socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), 0));
                if (ISSUED.add(socket.getLocalPort())) {
                    ports[i++] = socket.getLocalPort();
                }
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not find a free port on " + LOOPBACK, e);
        } finally {
            for (ServerSocket socket : sockets) {
                closeQuietly(socket);
            }
        }
    }

    public static int free() {
        return free(1)[0];
    }

    /**
     * True if a server could bind {@code port} of the loopback interface right now.
     *
     * @throws UncheckedIOException if the probe failed for another reason than the port being in
     *                              use (no file descriptors left, say): that is not a busy port
     */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port));
            return true;
        } catch (BindException e) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not probe port " + port + " on " + LOOPBACK + ": " + e, e);
        }
    }

    private static void closeQuietly(ServerSocket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing was written through it; a failed close leaks no state we care about
        }
    }
}
