package io.cctflow.query;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.maintenance.MaintenanceScheduler;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.query.api.ContextEndpoint;
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
import io.cctflow.query.api.TruncationEndpoint;
import io.cctflow.query.health.HealthEndpoints;
import io.cctflow.query.api.TimelineEndpoint;
import io.cctflow.query.api.TopMethodsEndpoint;
import io.cctflow.query.http.AccessTokens;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.BearerAuth;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.StaticFiles;
import io.cctflow.query.tasks.TaskPublisher;
import io.cctflow.query.tasks.TasksHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.neo4j.driver.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP API over the graph store. One {@link Driver} and one Kafka producer for the service's
 * lifetime; requests run on a small fixed pool of daemon threads; the roll-up and retention pass
 * runs every {@code rollup.interval} ({@link MaintenanceScheduler}) on one replica at a time (the
 * one holding the lease in Neo4j).
 */
public final class QueryService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);
    /** Default port of the API. */
    public static final int DEFAULT_PORT = 8080;

    private final Driver driver;
    private final HttpServer server;
    private final ExecutorService executor;
    private final MaintenanceScheduler maintenance; // null when rollup.interval is 0
    private final TaskPublisher publisher;
    private final List<String> routes;
    private final AlertingMetrics alerting; // null when disabled
    private final WindowReader windows;

    private QueryService(Driver driver, HttpServer server, ExecutorService executor,
            MaintenanceScheduler maintenance, TaskPublisher publisher, List<String> routes,
            AlertingMetrics alerting, WindowReader windows) {
        this.windows = windows;
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
        CatalogueReader catalogue = new CatalogueReader(driver, database);
        WindowReader windows = new WindowReader(driver, database, config.windowCacheRows());
        TopologyReader topology = new TopologyReader(driver, database);
        Limits limits = new Limits(config.maxRange(), config.maxWindows(), config.maxTreeNodes(), config.maxResults(),
                config.maxLoadedNodes(), config.pageSize());
        TreeSource trees = new TreeSource(windows, topology, limits);
        TaskPublisher publisher = new TaskPublisher(config.bootstrapServers(), config.tasksTopic());

        AccessTokens tokens = new AccessTokens(config.bearerToken(), config.writeToken());
        exposureWarning(config).ifPresent(LOG::warn);
        List<String> routes = new ArrayList<>();
        Route route = (path, handler) -> {
            routes.add(path);
            server.createContext(path, new BearerAuth(tokens, handler));
        };
        route.add("/api/v1/services", new JsonHandler(new ServicesEndpoint(catalogue, limits)));
        route.add("/api/v1/deployments", new JsonHandler(new DeploymentsEndpoint(catalogue, limits)));
        route.add("/api/v1/instances", new JsonHandler(new InstancesEndpoint(catalogue, limits)));
        route.add("/api/v1/metrics/method", new JsonHandler(new MethodMetricsEndpoint(catalogue, topology, trees)));
        route.add("/api/v1/tree", new JsonHandler(new TreeEndpoint(catalogue, trees)));
        route.add("/api/v1/compare", new JsonHandler(new CompareEndpoint(catalogue, trees)));
        route.add("/api/v1/timeline", new JsonHandler(new TimelineEndpoint(catalogue, trees)));
        route.add("/api/v1/metrics/top", new JsonHandler(new TopMethodsEndpoint(catalogue, topology, trees)));
        route.add(ContextEndpoint.PATH, new JsonHandler(new ContextEndpoint(catalogue, topology, limits)));
        route.add(TruncationEndpoint.PATH, new JsonHandler(new TruncationEndpoint(catalogue, trees)));
        route.add(TasksHandler.PATH, new TasksHandler(catalogue, publisher, Clock.systemUTC()));
        route.add(OpenApiEndpoint.PATH, new JsonHandler(new OpenApiEndpoint()));
        HealthEndpoints.register(server, driver, database);
        server.createContext("/", new StaticFiles("ui", new BearerAuth(tokens, new JsonHandler(params -> {
            throw new ApiException(404, "no such endpoint; see " + OpenApiEndpoint.PATH + " for the API, or / for"
                    + " the web UI");
        }))));

        ExecutorService executor = Executors.newFixedThreadPool(4, daemon("cctflow-http"));
        server.setExecutor(executor);
        AlertingMetrics metrics = alerting.enabled()
                ? AlertingMetrics.start(catalogue, windows, topology, alerting, Clock.systemUTC()) : null;
        if (metrics != null) {
            server.createContext("/metrics", new BearerAuth(tokens, metrics.handler())); // scraped with the read token
        }
        server.start();
        MaintenanceScheduler maintenance = config.rollupInterval().isZero() ? null
                : MaintenanceScheduler.start(driver, database, config.rollupInterval(), config.rollupSettle(),
                        config.retention(), config.retentionBatch());
        return new QueryService(driver, server, executor, maintenance, publisher, List.copyOf(routes), metrics,
                windows);
    }

    /**
     * The warning to log at start when the API listens beyond this machine with reads open to
     * anyone ({@code auth.token} empty), or nothing.
     */
    static Optional<String> exposureWarning(QueryServiceConfig config) {
        if (!config.bearerToken().isEmpty() || isLoopback(config.bindAddress())) {
            return Optional.empty();
        }
        return Optional.of("!!! SECURITY: the API listens on " + config.bindAddress() + ", beyond this machine, and "
                + QueryServiceConfig.AUTH_TOKEN + " is empty: anyone who reaches the port can read every profile"
                + (config.writeToken().isEmpty() ? " and change task definitions" : "")
                + ". Set " + QueryServiceConfig.AUTH_TOKEN + " and " + QueryServiceConfig.AUTH_WRITE_TOKEN
                + ", or bind to 127.0.0.1 !!!");
    }

    private static boolean isLoopback(String address) {
        try {
            return InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
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
        windows.clearWindowCache();
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
        if (maintenance != null) {
            maintenance.close();
        }
        publisher.close();
        driver.close();
    }
}
