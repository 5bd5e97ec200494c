package io.cctflow.graph;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.neo4j.driver.AuthToken;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

/**
 * Where the graph lives. Serializable so a Flink sink can carry it to its task managers.
 *
 * @param uri Bolt URI, e.g. {@code bolt://localhost:7687}
 * @param user user name; empty for a server without authentication
 * @param password password; ignored when {@code user} is empty
 * @param database database name; empty for the server's default
 */
public record GraphStoreConfig(String uri, String user, String password, String database) implements Serializable {
    private static final long serialVersionUID = 1L;

    public GraphStoreConfig {
        Objects.requireNonNull(uri, "uri");
        user = user == null ? "" : user;
        password = password == null ? "" : password;
        database = database == null ? "" : database;
    }

    /** A server without authentication, default database. */
    public static GraphStoreConfig unauthenticated(String uri) {
        return new GraphStoreConfig(uri, "", "", "");
    }

    /** Opens a driver; one per application, closed by the caller. */
    public Driver openDriver() {
        return GraphDatabase.driver(uri, auth());
    }

    /**
     * Opens a driver whose managed transactions ({@code executeRead}, {@code executeWrite}) are
     * retried on transient and connection errors for at most {@code maxTransactionRetryTime} (the
     * driver's default: 30 s) before the error reaches the caller.
     */
    public Driver openDriver(Duration maxTransactionRetryTime) {
        Config config = Config.builder()
                .withMaxTransactionRetryTime(maxTransactionRetryTime.toMillis(), TimeUnit.MILLISECONDS).build();
        return GraphDatabase.driver(uri, auth(), config);
    }

    private AuthToken auth() {
        return user.isEmpty() ? AuthTokens.none() : AuthTokens.basic(user, password);
    }
}
