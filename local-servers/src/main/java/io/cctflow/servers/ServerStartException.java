package io.cctflow.servers;

/**
 * A local server did not come up: the message says which server, where its data and log are,
 * and (for Kafka) ends with the last lines of the server's log. Not retriable by calling again
 * with the same arguments unless the cause (a busy port, a full disk) went away.
 */
public class ServerStartException extends RuntimeException {

    public ServerStartException(String message) {
        super(message);
    }

    public ServerStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
