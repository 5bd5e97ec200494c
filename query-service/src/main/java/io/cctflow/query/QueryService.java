package io.cctflow.query;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.cctflow.graph.GraphReader;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.GraphWriter;
import io.cctflow.graph.Retention;
import io.cctflow.graph.Rollups;
import io.cctflow.query.api.DeploymentsEndpoint;
import io.cctflow.query.api.InstancesEndpoint;
import io.cctflow.query.api.Limits;
import io.cctflow.query.api.MethodMetricsEndpoint;
import io.cctflow.query.api.OpenApiEndpoint;
import io.cctflow.query.api.ServicesEndpoint;
import io.cctflow.query.alerting.AlertingConfig;
import io.cctflow.query.alerting.AlertingMetrics;
import io.cctflow.query.api.compare.CompareEndpoint;
import io.cctflow.query.api.TreeEndpoint;
import io.cctflow.query.api.TreeSource;
import io.cctflow.query.api.TimelineEndpoint;
import io.cctflow.query.api.TopMethodsEndpoint;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.BearerAuth;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.StaticFiles;
import io.cctflow.query.tasks.TaskPublisher;
import io.cctflow.query.tasks.TasksHandler;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.neo4j.driver.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP API over the graph store. One {@link Driver} and one Kafka producer for the service's
 * lifetime; requests run on a small fixed pool of daemon threads; the roll-up and retention pass
 * runs on one more daemon thread every {@code rollup.interval}.
 */
public final class QueryService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);
    /** Default port of the API. */
    public static final int DEFAULT_PORT = 8080;

    private final Driver driver;
    private final HttpServer server;
    private final ExecutorService executor;
    private final ScheduledExecutorService maintenance;
    private final TaskPublisher publisher;
    private final List<String> routes;
    private final AlertingMetrics alerting; // null when disabled
    private final GraphReader reader;

    private QueryService(Driver driver, HttpServer server, ExecutorService executor,
            ScheduledExecutorService maintenance, TaskPublisher publisher, List<String> routes,
            AlertingMetrics alerting, GraphReader reader) {
        this.reader = reader;
        this.driver = driver;
        this.server = server;
        this.executor = executor;
        this.maintenance = maintenance;
        this.publisher = publisher;
        this.routes = routes;
        this.alerting = alerting;
    }

    /** Starts the API with the default configuration but for Neo4j, address and port. */
    public static QueryService start(GraphStoreConfig graph, String bindAddress, int port) throws IOException {
        return start(graph, bindAddress, port, AlertingConfig.defaults());
    }

    /** As {@link #start(GraphStoreConfig, String, int)}, with {@code /metrics} configured by {@code alerting}. */
    public static QueryService start(GraphStoreConfig graph, String bindAddress, int port, AlertingConfig alerting)
            throws IOException {
        return start(QueryServiceConfig.defaults().with(Map.of(QueryServiceConfig.BIND, bindAddress,
                QueryServiceConfig.PORT, Integer.toString(port), QueryServiceConfig.NEO4J_URI, graph.uri(),
                QueryServiceConfig.NEO4J_USER, graph.user(), QueryServiceConfig.NEO4J_PASSWORD, graph.password(),
                QueryServiceConfig.NEO4J_DATABASE, graph.database())), alerting);
    }

    /** Starts the API with {@code /metrics} as {@link AlertingConfig#defaults()} configures it. */
    public static QueryService start(QueryServiceConfig config) throws IOException {
        return start(config, AlertingConfig.defaults());
    }

    /**
     * Starts the API on {@code bind:port} (port 0 picks a free one).
     *
     * @throws IOException when the port cannot be bound, with the port in the message
     */
    public static QueryService start(QueryServiceConfig config, AlertingConfig alerting) throws IOException {
        Driver driver = config.graph().openDriver();
        String database = config.graph().database();
        HttpServer server;
        try {
            if (!config.rollupInterval().isZero()) {
                GraphSchema.ensure(driver, database); // the roll-up pass relies on its indexes
            }
            server = HttpServer.create(new InetSocketAddress(config.bindAddress(), config.port()), 64);
        } catch (IOException e) {
            driver.close();
            throw new IOException("cannot listen on " + config.bindAddress() + ":" + config.port() + " ("
                    + e.getMessage() + "); choose another port", e);
        } catch (RuntimeException e) {
            driver.close();
            throw new IllegalStateException("cannot prepare Neo4j at " + config.graph().uri() + ": " + e.getMessage(), e);
        }
        GraphReader reader = new GraphReader(driver, database, GraphReader.DEFAULT_TOPOLOGY_CACHE_NODES,
                config.windowCacheRows());
        Limits limits = new Limits(config.maxRange(), config.maxWindows(), config.maxTreeNodes(), config.maxResults());
        TreeSource trees = new TreeSource(reader, limits);
        TaskPublisher publisher = new TaskPublisher(config.bootstrapServers(), config.tasksTopic());

        List<String> routes = new ArrayList<>();
        Route route = (path, handler) -> {
            routes.add(path);
            server.createContext(path, new BearerAuth(config.bearerToken(), handler));
        };
        route.add("/api/v1/services", new JsonHandler(new ServicesEndpoint(reader)));
        route.add("/api/v1/deployments", new JsonHandler(new DeploymentsEndpoint(reader)));
        route.add("/api/v1/instances", new JsonHandler(new InstancesEndpoint(reader, limits)));
        route.add("/api/v1/metrics/method", new JsonHandler(new MethodMetricsEndpoint(reader, trees)));
        route.add("/api/v1/tree", new JsonHandler(new TreeEndpoint(reader, trees)));
        route.add("/api/v1/compare", new JsonHandler(new CompareEndpoint(reader, trees)));
        route.add("/api/v1/timeline", new JsonHandler(new TimelineEndpoint(reader, trees)));
        route.add("/api/v1/metrics/top", new JsonHandler(new TopMethodsEndpoint(reader, trees)));
        route.add(TasksHandler.PATH, new TasksHandler(reader, publisher, Clock.systemUTC()));
        route.add(OpenApiEndpoint.PATH, new JsonHandler(new OpenApiEndpoint()));
        server.createContext("/", new StaticFiles("ui", new BearerAuth(config.bearerToken(), new JsonHandler(params -> {
            throw new ApiException(404, "no such endpoint; see " + OpenApiEndpoint.PATH + " for the API, or / for"
                    + " the web UI");
        }))));

        ExecutorService executor = Executors.newFixedThreadPool(4, daemon("cctflow-http"));
        server.setExecutor(executor);
        AlertingMetrics metrics = alerting.enabled()
                ? AlertingMetrics.start(server, reader, alerting, Clock.systemUTC()) : null;
        server.start();
        ScheduledExecutorService maintenance = Executors.newSingleThreadScheduledExecutor(daemon("cctflow-rollups"));
        if (!config.rollupInterval().isZero()) {
            Rollups rollups = new Rollups(reader, new GraphWriter(driver, database), config.rollupSettle());
            Retention retention = new Retention(driver, database, config.retention());
            long every = config.rollupInterval().toMillis();
            maintenance.scheduleWithFixedDelay(() -> maintain(rollups, retention, config.retentionBatch()),
                    every, every, TimeUnit.MILLISECONDS);
        }
        return new QueryService(driver, server, executor, maintenance, publisher, List.copyOf(routes), metrics, reader);
    }

    /** One roll-up and retention pass; failures are logged and the next pass tries again. */
    private static void maintain(Rollups rollups, Retention retention, int batch) {
        try {
            long now = System.currentTimeMillis();
            Rollups.Result r = rollups.rollUp(now);
            var deleted = retention.deleteExpired(now, batch);
            LOG.info("roll-up pass: {} hours, {} days, {} windows written; expired windows deleted: {}",
                    r.hours(), r.days(), r.windowsWritten(), deleted);
        } catch (RuntimeException e) {
            LOG.warn("roll-up pass failed; the next pass retries", e);
        }
    }

    private interface Route {
        void add(String path, HttpHandler handler);
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** The port the API listens on. */
    public int port() {
        return server.getAddress().getPort();
    }

    /**
     * Empties the cache of decoded windows ({@code cache.window-rows}), so the next requests read
     * every window from Neo4j again: for measuring cold reads. Thread-safe.
     */
    public void clearWindowCache() {
        reader.clearWindowCache();
    }

    /** The paths of every registered endpoint (what the OpenAPI document must describe). */
    public List<String> routes() {
        return routes;
    }

    @Override
    public void close() {
        server.stop(0);
        if (alerting != null) {
            alerting.close();
        }
        executor.shutdownNow();
        maintenance.shutdownNow();
        publisher.close();
        driver.close();
    }
}
