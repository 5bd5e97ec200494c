package io.cctflow.agent;

import java.net.InetAddress;

/** The local host name, for the instance identity. Stateless and thread-safe. */
final class LocalHost {
    private LocalHost() {
    }

    /**
     * The host name; {@code $HOSTNAME} when the resolver fails (containers without DNS for their
     * own name), else {@code unknown-host}. May do a DNS lookup: call off the host's startup path.
     */
    static String name() {
        try {
            String name = InetAddress.getLocalHost().getHostName();
            if (name != null && !name.isBlank()) {
                return name;
            }
        } catch (Exception e) {
            // fall through to the environment
        }
        String env = System.getenv("HOSTNAME");
        return env == null || env.isBlank() ? "unknown-host" : env;
    }
}
