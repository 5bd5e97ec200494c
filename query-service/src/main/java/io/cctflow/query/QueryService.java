package io.cctflow.query;

import com.sun.net.httpserver.HttpServer;
import io.cctflow.graph.GraphReader;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.query.api.MethodMetricsEndpoint;
import io.cctflow.query.api.ServicesEndpoint;
import io.cctflow.query.alerting.AlertingConfig;
import io.cctflow.query.alerting.AlertingMetrics;
import io.cctflow.query.api.compare.CompareEndpoint;
import io.cctflow.query.http.JsonHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.neo4j.driver.Driver;

/**
 * The HTTP API over the graph store. One {@link Driver} for the service's lifetime; requests run
 * on a small fixed pool of daemon threads.
 */
public final class QueryService implements AutoCloseable {
    /** Default port of the API. */
    public static final int DEFAULT_PORT = 8080;

    private final Driver driver;
    private final HttpServer server;
    private final ExecutorService executor;
    private final AlertingMetrics alerting; // null when disabled

    private QueryService(Driver driver, HttpServer server, ExecutorService executor, AlertingMetrics alerting) {
        this.driver = driver;
        this.server = server;
        this.executor = executor;
        this.alerting = alerting;
    }

    /**
     * Starts the API on {@code bindAddress:port} (port 0 picks a free one).
     *
     * @throws IOException when the port cannot be bound, with the port in the message
     */
    public static QueryService start(GraphStoreConfig graph, String bindAddress, int port) throws IOException {
        return start(graph, bindAddress, port, AlertingConfig.defaults());
    }

    /** {@link #start(GraphStoreConfig, String, int)} with {@code /metrics} configured by {@code alerting}. */
    public static QueryService start(GraphStoreConfig graph, String bindAddress, int port, AlertingConfig alerting)
            throws IOException {
        Driver driver = graph.openDriver();
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(bindAddress, port), 64);
        } catch (IOException e) {
            driver.close();
            throw new IOException("cannot listen on " + bindAddress + ":" + port + " (" + e.getMessage()
                    + "); choose another port", e);
        }
        GraphReader reader = new GraphReader(driver, graph.database());
        server.createContext("/api/v1/services", new JsonHandler(new ServicesEndpoint(reader)));
        server.createContext("/api/v1/metrics/method", new JsonHandler(new MethodMetricsEndpoint(reader)));
        server.createContext("/api/v1/compare", new JsonHandler(new CompareEndpoint(reader)));
        server.createContext("/", new JsonHandler(params -> {
            throw new io.cctflow.query.http.ApiException(404,
                    "no such endpoint; see /api/v1/services and /api/v1/metrics/method");
        }));
        ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "cctflow-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        AlertingMetrics metrics = alerting.enabled()
                ? AlertingMetrics.start(server, reader, alerting, Clock.systemUTC()) : null;
        server.start();
        return new QueryService(driver, server, executor, metrics);
    }

    /** The port the API listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        if (alerting != null) {
            alerting.close();
        }
        executor.shutdownNow();
        driver.close();
    }
}
