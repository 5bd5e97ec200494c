package io.cctflow.query;

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
import io.cctflow.query.api.MigratedAnswers;
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
import io.cctflow.query.http.ApiServer;
import io.cctflow.query.http.BearerAuth;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.StaticFiles;
import io.cctflow.query.tasks.TaskPublisher;
import io.cctflow.query.tasks.TasksHandler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jetty.server.Handler;
import org.neo4j.driver.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP API over the graph store. One {@link Driver} and one Kafka producer for the service's
 * lifetime; requests run on Jetty within {@link io.cctflow.query.http.ServerLimits} (bounded
 * request threads, timeouts, heavy requests capped on threads of their own, gzip); the roll-up and retention pass
 * runs every {@code rollup.interval} ({@link MaintenanceScheduler}) on one replica at a time (the
 * one holding the lease in Neo4j).
 */
public final class QueryService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(QueryService.class);
    /** Default port of the API. */
    public static final int DEFAULT_PORT = 8080;
    /** The endpoints that may read and merge many windows: capped by {@code http.heavy-requests}. */
    static final Set<String> HEAVY = Set.of("/api/v1/tree", "/api/v1/compare", "/api/v1/timeline",
            "/api/v1/metrics/top", "/api/v1/metrics/method");

    private final Driver driver;
    private final ApiServer server;
    private final MaintenanceScheduler maintenance; // null when rollup.interval is 0
    private final TaskPublisher publisher;
    private final List<String> routes;
    private final AlertingMetrics alerting; // null when disabled
    private final WindowReader windows;

    private QueryService(Driver driver, ApiServer server, MaintenanceScheduler maintenance, TaskPublisher publisher, List<String> routes,
            AlertingMetrics alerting, WindowReader windows) {
        this.windows = windows;
        this.driver = driver;
        this.server = server;
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
        return start(config, alerting, Clock.systemUTC());
    }

    /**
     * As {@link #start(QueryServiceConfig, AlertingConfig)}, with {@code /metrics} computed as of
     * {@code alertingClock} (its trailing window ends at the clock's now): a benchmark sets it to
     * the end of a dataset recorded in the past.
     */
    public static QueryService start(QueryServiceConfig config, AlertingConfig alerting, Clock alertingClock)
            throws IOException {
        Driver driver = config.graph().openDriver();
        String database = config.graph().database();
        try {
            if (!config.rollupInterval().isZero()) {
                GraphSchema.ensure(driver, database); // the roll-up pass relies on its indexes
            }
        } catch (RuntimeException e) {
            driver.close();
            throw new IllegalStateException("cannot prepare Neo4j at " + config.graph().uri() + ": " + e.getMessage(), e);
        }
        ApiServer server = new ApiServer(config.bindAddress(), config.port(), config.server());
        Duration readTimeout = config.server().transactionTimeout();
        CatalogueReader catalogue = new CatalogueReader(driver, database, readTimeout);
        TopologyReader topology = new TopologyReader(driver, database, TopologyReader.DEFAULT_TOPOLOGY_CACHE_NODES,
                readTimeout);
        WindowReader windows = new WindowReader(driver, database, config.windowCacheRows(), readTimeout, topology);
        Limits limits = new Limits(config.maxRange(), config.maxWindows(), config.maxTreeNodes(), config.maxResults(),
                config.maxLoadedNodes(), config.pageSize());
        TreeSource trees = new TreeSource(windows, topology, limits, config.treeCacheNodes());
        MigratedAnswers migrations = new MigratedAnswers(catalogue, trees);
        TaskPublisher publisher = new TaskPublisher(config.bootstrapServers(), config.tasksTopic());

        AccessTokens tokens = new AccessTokens(config.bearerToken(), config.writeToken());
        exposureWarning(config).ifPresent(LOG::warn);
        List<String> routes = new ArrayList<>();
        Route route = (path, handler) -> {
            routes.add(path);
            server.route(path, new BearerAuth(tokens, HEAVY.contains(path) ? server.heavy(handler) : handler));
        };
        route.add("/api/v1/services", new JsonHandler(new ServicesEndpoint(catalogue, limits)));
        route.add("/api/v1/deployments", new JsonHandler(new DeploymentsEndpoint(catalogue, limits)));
        route.add("/api/v1/instances", new JsonHandler(new InstancesEndpoint(catalogue, limits)));
        route.add("/api/v1/metrics/method", new JsonHandler(new MethodMetricsEndpoint(catalogue, topology, trees, migrations)));
        route.add("/api/v1/tree", new JsonHandler(new TreeEndpoint(catalogue, topology, trees, migrations,
                config.treeAnswerBytes())));
        route.add("/api/v1/compare", new JsonHandler(new CompareEndpoint(catalogue, trees, config.instanceGroups())));
        route.add("/api/v1/timeline", new JsonHandler(new TimelineEndpoint(catalogue, trees)));
        route.add("/api/v1/metrics/top", new JsonHandler(new TopMethodsEndpoint(catalogue, topology, trees, migrations)));
        route.add(ContextEndpoint.PATH, new JsonHandler(new ContextEndpoint(catalogue, topology, limits)));
        route.add(TruncationEndpoint.PATH, new JsonHandler(new TruncationEndpoint(catalogue, trees)));
        route.add(TasksHandler.PATH, new TasksHandler(catalogue, publisher, Clock.systemUTC()));
        route.add(OpenApiEndpoint.PATH, new JsonHandler(new OpenApiEndpoint()));
        HealthEndpoints.register(server, driver, database);
        server.route("/", new StaticFiles("ui", new BearerAuth(tokens, new JsonHandler(params -> {
            throw new ApiException(404, "no such endpoint; see " + OpenApiEndpoint.PATH + " for the API, or / for"
                    + " the web UI");
        }))));

        AlertingMetrics metrics = alerting.enabled()
                ? AlertingMetrics.start(catalogue, windows, topology, alerting, alertingClock) : null;
        if (metrics != null) {
            server.route("/metrics", new BearerAuth(tokens, metrics.handler())); // scraped with the read token
        }
        try {
            server.start();
        } catch (IOException e) {
            if (metrics != null) {
                metrics.close();
            }
            publisher.close();
            driver.close();
            throw e;
        }
        MaintenanceScheduler maintenance = config.rollupInterval().isZero() ? null
                : MaintenanceScheduler.start(driver, database, config.rollupInterval(), config.rollupSettle(),
                        config.rollupMinuteSettle(),
                        config.retention(), config.retentionBatch(), config.instanceGroups());
        if (metrics != null && maintenance != null) {
            metrics.exportMaintenance(maintenance);
        }
        return new QueryService(driver, server, maintenance, publisher, List.copyOf(routes), metrics,
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
        void add(String path, Handler handler);
    }

    /** The port the API listens on. */
    public int port() {
        return server.port();
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
        server.close();
        if (alerting != null) {
            alerting.close();
        }
        if (maintenance != null) {
            maintenance.close();
        }
        publisher.close();
        driver.close();
    }
}
