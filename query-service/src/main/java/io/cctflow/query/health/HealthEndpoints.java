package io.cctflow.query.health;

import io.cctflow.query.http.ApiServer;
import io.cctflow.query.http.JsonHandler;
import java.time.Duration;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.SessionConfig;
import org.neo4j.driver.TransactionConfig;

/**
 * {@code GET /healthz} (liveness: the process serves requests) and {@code GET /readyz} (readiness:
 * Neo4j answers a query within {@link #NEO4J_TIMEOUT}; 503 naming the cause otherwise). Both are
 * open without the bearer token, as probes of a load balancer or of Kubernetes call them.
 */
public final class HealthEndpoints {
    public static final String LIVENESS = "/healthz";
    public static final String READINESS = "/readyz";
    static final Duration NEO4J_TIMEOUT = Duration.ofSeconds(2);

    private HealthEndpoints() {
    }

    /**
     * Registers both endpoints on {@code server}, on its request threads (never behind heavy
     * requests); {@code database} empty: the default.
     */
    public static void register(ApiServer server, Driver driver, String database) {
        server.route(LIVENESS, new JsonHandler(params -> Map.of("status", "up")));
        server.route(READINESS, new JsonHandler(params -> readiness(driver, database)));
    }

    private static Object readiness(Driver driver, String database) {
        SessionConfig config = database.isEmpty() ? SessionConfig.defaultConfig() : SessionConfig.forDatabase(database);
        try (var session = driver.session(config)) {
            session.run("RETURN 1", TransactionConfig.builder().withTimeout(NEO4J_TIMEOUT).build()).consume();
            return Map.of("status", "ready", "neo4j", "up");
        } catch (RuntimeException e) {
            return new JsonHandler.Status(503, Map.of("status", "not ready", "neo4j", "unavailable: " + e.getMessage()));
        }
    }
}
