package io.cctflow.servers;

import java.net.BindException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;

import io.cctflow.servers.internal.BoltPing;
import io.cctflow.servers.internal.Directories;
import io.cctflow.servers.internal.Ports;
import org.neo4j.configuration.GraphDatabaseInternalSettings;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.config.Setting;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An embedded Neo4j 5 (Community) database in this JVM, reachable over Bolt on 127.0.0.1,
 * without authentication and without HTTP.
 *
 * <p>The home directory holds the store ({@code data/}) and Neo4j's own log
 * ({@code logs/debug.log}); it survives {@link #close()}, so the same directory can be started
 * again with its data. No shutdown hook is registered: the caller decides when to stop.
 * Instances are thread-safe.
 */
public final class Neo4jServer implements AutoCloseable {

    /**
     * JVM options the embedded database wants (Neo4j's own launcher passes the same): without
     * them the page cache falls back to slower buffer handling and start-up takes longer. Put
     * them in surefire's {@code argLine}, or an executable jar's manifest as
     * {@code Add-Opens: java.base/java.nio java.base/sun.nio.ch java.base/java.io}.
     */
    public static final List<String> RECOMMENDED_JVM_OPTIONS = List.of(
            "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.io=ALL-UNNAMED");

    /**
     * How long a planned query stays planned before Neo4j may plan it again for changed
     * statistics ({@code dbms.cypher.min_replan_interval}; Neo4j's default is 10 s). The k8s
     * manifest of Neo4j sets the same.
     */
    public static final Duration MIN_REPLAN_INTERVAL = Duration.ofMinutes(10);

    private static final Logger LOG = LoggerFactory.getLogger(Neo4jServer.class);

    private final Path homeDir;
    private final int boltPort;
    private final DatabaseManagementService service;
    private final Duration startupTime;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Neo4jServer(Path homeDir, int boltPort, DatabaseManagementService service, Duration startupTime) {
        this.homeDir = homeDir;
        this.boltPort = boltPort;
        this.service = service;
        this.startupTime = startupTime;
    }

    /** Starts a database in {@code homeDir} (created if missing) on a free Bolt port. */
    public static Neo4jServer start(Path homeDir) {
        return builder(homeDir).start();
    }

    /** Options for a database whose files live in {@code homeDir}. */
    public static Builder builder(Path homeDir) {
        return new Builder(homeDir);
    }

    /** {@code bolt://127.0.0.1:port}; connect with {@code AuthTokens.none()}. */
    public String boltUri() {
        return boltUri(boltPort);
    }

    private static String boltUri(int port) {
        return "bolt://" + Ports.LOOPBACK + ":" + port;
    }

    public int boltPort() {
        return boltPort;
    }

    public Path homeDir() {
        return homeDir;
    }

    /** Time from the call to {@code start()} until the database answered {@code RETURN 1} over Bolt. */
    public Duration startupTime() {
        return startupTime;
    }

    /** Stops the database (about a second with our shutdown settings). Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long startNanos = System.nanoTime();
        service.shutdown();
        LOG.info("Neo4j on {} stopped in {} ms", boltUri(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    }

    @Override
    public String toString() {
        return "Neo4jServer[" + boltUri() + ", " + homeDir + "]";
    }

    /** Options for {@link Neo4jServer}; not thread-safe. */
    public static final class Builder {

        /** Free ports tried when Bolt's is taken between choosing it and binding it. */
        static final int PORT_ATTEMPTS = 3;

        private final Path homeDir;
        private int boltPort;
        private IntSupplier freePorts = Ports::free;
        private long pageCacheBytes = 256L * 1024 * 1024;
        private final Map<Setting<?>, Object> settings = new LinkedHashMap<>();

        private Builder(Path homeDir) {
            this.homeDir = Objects.requireNonNull(homeDir, "homeDir");
        }

        /** Bolt port; default: a free one. */
        public Builder boltPort(int boltPort) {
            if (boltPort < 1 || boltPort > 65535) {
                throw new IllegalArgumentException("Port must be in 1..65535, was " + boltPort);
            }
            this.boltPort = boltPort;
            return this;
        }

        /** Where free Bolt ports come from when none is set; for tests of the retry. */
        Builder freePorts(IntSupplier freePorts) {
            this.freePorts = Objects.requireNonNull(freePorts, "freePorts");
            return this;
        }

        /** Page cache size (off-heap); default 256 MiB. */
        public Builder pageCacheBytes(long pageCacheBytes) {
            if (pageCacheBytes <= 0) {
                throw new IllegalArgumentException("Page cache must be positive, was " + pageCacheBytes);
            }
            this.pageCacheBytes = pageCacheBytes;
            return this;
        }

        /** Any other Neo4j setting, overriding ours. */
        public <T> Builder setting(Setting<T> setting, T value) {
            settings.put(Objects.requireNonNull(setting, "setting"), value);
            return this;
        }

        /**
         * Starts the database and waits until it answers over Bolt. Without a set port, a free
         * one is chosen; if another process takes it before Neo4j binds it (Neo4j binds Bolt only
         * after opening its store, seconds later), up to {@value #PORT_ATTEMPTS} ports are tried.
         *
         * @throws ServerStartException if Neo4j cannot start (busy port, locked or damaged
         *                              store: see {@code logs/debug.log} in the home directory)
         */
        public Neo4jServer start() {
            long startNanos = System.nanoTime();
            warnIfNioClosed();
            Path home = Directories.create(homeDir);
            int attempts = boltPort != 0 ? 1 : PORT_ATTEMPTS;
            int port;
            DatabaseManagementService service;
            for (int attempt = 1; ; attempt++) {
                port = boltPort != 0 ? boltPort : freePorts.getAsInt();
                try {
                    service = new DatabaseManagementServiceBuilder(home).setConfig(settings(port)).build();
                    break;
                } catch (RuntimeException e) {
                    if (attempt < attempts && portTaken(e)) {
                        LOG.warn("Bolt port {} was taken before Neo4j could bind it; trying another ({} of {})", port,
                                attempt + 1, attempts);
                        continue;
                    }
                    throw new ServerStartException("Neo4j could not start in " + home + " with Bolt on "
                            + Ports.LOOPBACK + ":" + port + ": " + e + " (see " + home.resolve("logs/debug.log") + ")", e);
                }
            }
            try {
                BoltPing.ping(boltUri(port));
            } catch (RuntimeException e) {
                service.shutdown();
                throw new ServerStartException("Neo4j started in " + home + " but does not answer on "
                        + boltUri(port) + ": " + e, e);
            }
            Neo4jServer server = new Neo4jServer(home, port, service, Duration.ofNanos(System.nanoTime() - startNanos));
            LOG.info("Neo4j ready on {} in {} ms, home {}", server.boltUri(), server.startupTime().toMillis(), home);
            return server;
        }

        private Map<Setting<?>, Object> settings(int port) {
            Map<Setting<?>, Object> s = new LinkedHashMap<>();
            s.put(BoltConnector.enabled, true);
            s.put(BoltConnector.listen_address, new SocketAddress(Ports.LOOPBACK, port));
            s.put(HttpConnector.enabled, false);
            s.put(HttpsConnector.enabled, false);
            s.put(GraphDatabaseSettings.auth_enabled, false);
            s.put(GraphDatabaseSettings.pagecache_memory, pageCacheBytes);
            // small transaction logs: rotate at 16 MiB and keep two files besides the current one
            s.put(GraphDatabaseSettings.logical_log_rotation_threshold, 16L * 1024 * 1024);
            s.put(GraphDatabaseSettings.keep_logical_logs, "2 files");
            s.put(GraphDatabaseSettings.preallocate_logical_logs, false);
            // The job's writes are MERGEs on unique keys, planned as index seeks whatever the
            // statistics; a store that grows all the time (new windows every minute) otherwise
            // makes Neo4j replan them every 10 s (its default), which was a fifth of Neo4j's CPU
            // in the pipeline benchmark (bench/reports/journal/pipeline.md, 2026-11-27)
            s.put(GraphDatabaseSettings.cypher_min_replan_interval, MIN_REPLAN_INTERVAL);
            // Bolt's Netty otherwise waits a 2 s quiet period and up to 15 s on shutdown
            s.put(GraphDatabaseInternalSettings.netty_server_shutdown_quiet_period, 0);
            s.put(GraphDatabaseInternalSettings.netty_server_shutdown_timeout, Duration.ofSeconds(1));
            s.putAll(settings);
            return s;
        }

        /** Whether a start failed because its port was in use: a {@link BindException} among the causes. */
        static boolean portTaken(Throwable e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof BindException || String.valueOf(t.getMessage()).contains("Address already in use")) {
                    return true;
                }
            }
            return false;
        }

        private static void warnIfNioClosed() {
            if (!Object.class.getModule().isOpen("java.nio", Neo4jServer.class.getModule())) {
                LOG.warn("java.nio is not open to Neo4j: start-up is slower and the page cache uses a fallback."
                        + " Add the JVM options {}", String.join(" ", RECOMMENDED_JVM_OPTIONS));
            }
        }
    }
}
