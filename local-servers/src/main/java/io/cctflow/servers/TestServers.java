package io.cctflow.servers;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;

import io.cctflow.servers.internal.Backend;
import io.cctflow.servers.internal.ContainerBackend;
import io.cctflow.servers.internal.EmbeddedBackend;
import io.cctflow.servers.internal.Topics;
import org.neo4j.driver.AuthToken;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Session;

/**
 * The one integration-test fixture: a real Kafka broker and a real Neo4j database, started on
 * first use and shared by every test in the JVM, stopped by a shutdown hook.
 *
 * <p>Where the servers come from ({@link Mode}): the system property
 * {@value #MODE_PROPERTY} or else the environment variable {@value #MODE_ENV}, if set to
 * {@code embedded} or {@code testcontainers}; otherwise Testcontainers when it is on the class
 * path and finds a Docker engine, else the embedded servers ({@link KafkaServer} and
 * {@link Neo4jProcess}, each a child process, data in a fresh directory under
 * {@code java.io.tmpdir}, deleted on exit unless {@value #KEEP_PROPERTY} is {@code true}).
 *
 * <p>Both modes give a single broker with replication factor 1 and automatic topic creation
 * off (create topics with {@link #createTopic}), and a Neo4j 5.26 without authentication.
 * The servers are shared: use unique topic names per test, and call {@link #cleanNeo4j()}
 * where a test needs an empty graph. Thread-safe.
 *
 * <p>The servers stop when the JVM exits; the embedded ones, child processes that watch their
 * parent, also when it dies. Test runners exit their JVM explicitly; a plain {@code main} using
 * this class should call {@code System.exit} too, which runs the shutdown hook that stops them.
 */
public final class TestServers {

    /** System property that chooses the mode: {@code embedded} or {@code testcontainers}. */
    public static final String MODE_PROPERTY = "cctflow.test.servers";
    /** Environment variable read when {@value #MODE_PROPERTY} is not set. */
    public static final String MODE_ENV = "CCTFLOW_TEST_SERVERS";
    /** System property: {@code true} keeps the embedded servers' data directory after exit. */
    public static final String KEEP_PROPERTY = "cctflow.test.servers.keep";

    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(30);
    private static final String[] TESTCONTAINERS_CLASSES = {
        "org.testcontainers.DockerClientFactory",
        "org.testcontainers.kafka.KafkaContainer",
        "org.testcontainers.containers.Neo4jContainer",
    };

    /** Where the servers run. */
    public enum Mode {
        /** Docker containers started by Testcontainers. */
        TESTCONTAINERS,
        /** {@link KafkaServer} and {@link Neo4jProcess} on this machine. */
        EMBEDDED
    }

    private static TestServers instance;
    private static RuntimeException startFailure;

    private final Mode mode;
    private final Backend backend;
    private Driver sharedDriver;
    private boolean stopped;

    private TestServers(Mode mode, Backend backend) {
        this.mode = mode;
        this.backend = backend;
    }

    /**
     * The shared servers, started on the first call (a few seconds; later calls return at
     * once). A failed start is remembered: later calls throw the same error instead of trying
     * again for every test class.
     *
     * @throws ServerStartException if the servers cannot start
     */
    public static synchronized TestServers get() {
        if (instance != null) {
            return instance;
        }
        if (startFailure != null) {
            throw new ServerStartException("The shared test servers failed to start earlier in this JVM: "
                    + startFailure.getMessage(), startFailure);
        }
        try {
            instance = start();
            return instance;
        } catch (RuntimeException e) {
            startFailure = e;
            throw e;
        }
    }

    private static TestServers start() {
        long startNanos = System.nanoTime();
        String configured = System.getProperty(MODE_PROPERTY, System.getenv(MODE_ENV));
        ModeChoice choice = chooseMode(configured, TestServers::testcontainersUsable);
        log("mode " + choice.mode() + " (" + choice.reason() + "), starting servers");
        Backend backend = choice.mode() == Mode.TESTCONTAINERS ? startContainers() : startEmbedded();
        TestServers servers = new TestServers(choice.mode(), backend);
        Runtime.getRuntime().addShutdownHook(new Thread(servers::stop, "cctflow-test-servers-stop"));
        log("mode " + choice.mode() + " ready in " + Duration.ofNanos(System.nanoTime() - startNanos).toMillis()
                + " ms: " + backend.describe());
        return servers;
    }

    /** The mode and why; {@code configured} is the property or environment value, may be null. */
    static ModeChoice chooseMode(String configured, BooleanSupplier testcontainersUsable) {
        if (configured != null && !configured.isBlank()) {
            String value = configured.trim().toLowerCase(Locale.ROOT);
            switch (value) {
                case "embedded":
                    return new ModeChoice(Mode.EMBEDDED, "configured");
                case "testcontainers":
                    return new ModeChoice(Mode.TESTCONTAINERS, "configured");
                default:
                    throw new IllegalArgumentException("Unknown test-server mode '" + configured + "' in "
                            + MODE_PROPERTY + " / " + MODE_ENV + "; use 'embedded' or 'testcontainers'");
            }
        }
        long startNanos = System.nanoTime();
        boolean usable = testcontainersUsable.getAsBoolean();
        String checked = " (checked in " + Duration.ofNanos(System.nanoTime() - startNanos).toMillis() + " ms)";
        return usable
                ? new ModeChoice(Mode.TESTCONTAINERS, "auto: Docker engine reachable" + checked)
                : new ModeChoice(Mode.EMBEDDED, "auto: Testcontainers absent or no Docker engine" + checked);
    }

    private static boolean testcontainersUsable() {
        return testcontainersOnClassPath() && ContainerBackend.dockerAvailable();
    }

    private static boolean testcontainersOnClassPath() {
        try {
            for (String name : TESTCONTAINERS_CLASSES) {
                Class.forName(name, false, TestServers.class.getClassLoader());
            }
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static Backend startContainers() {
        if (!testcontainersOnClassPath()) {
            throw new ServerStartException(MODE_PROPERTY + "=testcontainers, but Testcontainers is not on the class"
                    + " path: add test dependencies org.testcontainers:kafka and org.testcontainers:neo4j");
        }
        return ContainerBackend.start();
    }

    private static Backend startEmbedded() {
        Path dir;
        try {
            dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "cctflow-test-servers-");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a data directory under java.io.tmpdir", e);
        }
        return EmbeddedBackend.start(dir, Boolean.getBoolean(KEEP_PROPERTY));
    }

    public Mode mode() {
        return mode;
    }

    /** For the {@code bootstrap.servers} client setting. */
    public String kafkaBootstrapServers() {
        return backend.kafkaBootstrapServers();
    }

    /** A {@code bolt://} URI. */
    public String neo4jUri() {
        return backend.neo4jUri();
    }

    /** Empty: both modes run Neo4j without authentication (use {@link #neo4jAuth()}). */
    public String neo4jUser() {
        return "";
    }

    /** Empty: both modes run Neo4j without authentication (use {@link #neo4jAuth()}). */
    public String neo4jPassword() {
        return "";
    }

    /** The token to connect with: {@code AuthTokens.none()}. */
    public AuthToken neo4jAuth() {
        return AuthTokens.none();
    }

    /**
     * Creates a topic (replication factor 1, broker-default configs) unless it exists, and
     * returns when its partitions have leaders.
     */
    public void createTopic(String name, int partitions) {
        createTopic(name, partitions, Map.of());
    }

    /** Like {@link #createTopic(String, int)} with topic configs, e.g. {@code cleanup.policy}. */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        Topics.create(kafkaBootstrapServers(), Map.of(name, partitions), configs, TOPIC_TIMEOUT);
    }

    /**
     * Makes Neo4j unreachable (embedded: shut down cleanly; containers: paused), keeping its data and
     * address, until {@link #resumeNeo4j()}. For tests that show nothing is lost or doubled while
     * the database is away; resume in a {@code finally}, other tests share the server.
     */
    public synchronized void suspendNeo4j() {
        if (sharedDriver != null) {
            sharedDriver.close();
            sharedDriver = null;
        }
        backend.suspendNeo4j();
    }

    /**
     * Kills Neo4j as a crash would ({@code kill -9} of its process, embedded; {@code docker kill},
     * containers): no clean shutdown, the store as the kill left it. {@link #resumeNeo4j()}
     * starts it again on that store, at the same address. Resume in a {@code finally}, other tests
     * share the server.
     */
    public synchronized void killNeo4j() {
        if (sharedDriver != null) {
            sharedDriver.close();
            sharedDriver = null;
        }
        backend.killNeo4j();
    }

    /**
     * Brings Neo4j back after {@link #suspendNeo4j()} or {@link #killNeo4j()}, and returns when it
     * answers.
     */
    public synchronized void resumeNeo4j() {
        backend.resumeNeo4j();
    }

    /** A new driver for {@link #neo4jUri()}; the caller owns and closes it. */
    public Driver newDriver() {
        return GraphDatabase.driver(neo4jUri(), neo4jAuth());
    }

    /**
     * Deletes every node and relationship of the default database, in batches. Indexes and
     * constraints stay.
     */
    public void cleanNeo4j() {
        try (Session session = driver().session()) {
            // an auto-commit transaction: required by CALL ... IN TRANSACTIONS, and batches keep
            // a large leftover graph from exhausting transaction memory
            session.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume();
        }
    }

    private synchronized Driver driver() {
        if (stopped) {
            throw new IllegalStateException("The shared test servers are stopped (the JVM is exiting)");
        }
        if (sharedDriver == null) {
            sharedDriver = newDriver();
        }
        return sharedDriver;
    }

    private void stop() {
        long startNanos = System.nanoTime();
        synchronized (this) {
            stopped = true;
            if (sharedDriver != null) {
                sharedDriver.close();
            }
        }
        backend.close();
        log("stopped in " + Duration.ofNanos(System.nanoTime() - startNanos).toMillis() + " ms");
    }

    private static void log(String message) {
        // stderr, not SLF4J: Neo4j's SLF4J provider may be the one bound, and it drops
        // everything until a database runs
        System.err.println("[cctflow TestServers] " + message);
    }

    /** A chosen mode and the reason, for the start-up message. */
    record ModeChoice(Mode mode, String reason) {
    }
}
