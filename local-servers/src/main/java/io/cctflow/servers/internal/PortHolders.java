package io.cctflow.servers.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What holds a TCP port, read from Linux's {@code /proc/net/tcp} and {@code /proc/net/tcp6}: for
 * the message of a start that found its port busy, so that the reader sees whether a listener,
 * a connection or a socket closing holds it. Elsewhere (no {@code /proc}) it says so.
 */
public final class PortHolders {

    /** Socket states as numbered in {@code include/net/tcp_states.h}. */
    private static final String[] STATES = {"?", "ESTABLISHED", "SYN_SENT", "SYN_RECV", "FIN_WAIT1", "FIN_WAIT2",
            "TIME_WAIT", "CLOSE", "CLOSE_WAIT", "LAST_ACK", "LISTEN", "CLOSING", "NEW_SYN_RECV"};
    private static final int MAX_LISTED = 5;

    private PortHolders() {
    }

    /** E.g. {@code "sockets on port 41147 now: LISTEN (uid 0, inode 123)"}; never throws. */
    public static String describe(int port) {
        List<String> holders = new ArrayList<>();
        boolean read = false;
        for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of(table));
            } catch (IOException | RuntimeException e) {
                continue;
            }
            read = true;
            for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
                String holder = holder(line, port);
                if (holder != null && holders.size() < MAX_LISTED) {
                    holders.add(holder);
                }
            }
        }
        if (!read) {
            return "no /proc/net/tcp to tell what holds port " + port;
        }
        return holders.isEmpty() ? "no TCP socket on port " + port + " now"
                : "sockets on port " + port + " now: " + String.join("; ", holders);
    }

    /** The line's state and owner if its local port is {@code port}, else null. */
    static String holder(String line, int port) {
        // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
        String[] f = line.trim().split("\\s+");
        if (f.length < 10) {
            return null;
        }
        int colon = f[1].lastIndexOf(':');
        if (colon < 0 || !f[1].substring(colon + 1).equalsIgnoreCase(String.format(Locale.ROOT, "%04X", port))) {
            return null;
        }
        int remoteColon = f[2].lastIndexOf(':');
        int state;
        int remotePort;
        try {
            state = Integer.parseInt(f[3], 16);
            remotePort = Integer.parseInt(f[2].substring(remoteColon + 1), 16);
        } catch (NumberFormatException e) {
            return null;
        }
        String name = state > 0 && state < STATES.length ? STATES[state] : "state " + f[3];
        return name + (remotePort == 0 ? "" : " with remote port " + remotePort) + " (uid " + f[7] + ", inode " + f[9]
                + ")";
    }
}
