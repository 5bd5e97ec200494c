package io.cctflow.servers.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/** Picks TCP ports on the loopback interface. */
public final class Ports {

    public static final String LOOPBACK = "127.0.0.1";

    private Ports() {
    }

    /**
     * Returns {@code count} distinct ports that were free a moment ago. All sockets are held
     * open until every port is chosen, so the ports differ from each other; another process may
     * still take one before the caller binds it.
     */
    public static int[] free(int count) {
        List<ServerSocket> sockets = new ArrayList<>(count);
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket();
                sockets.add(socket);
                socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), 0));
                ports[i] = socket.getLocalPort();
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

    /** True if nothing listens on {@code port} of the loopback interface right now. */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(LOOPBACK), port));
            return true;
        } catch (IOException e) {
            return false;
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
