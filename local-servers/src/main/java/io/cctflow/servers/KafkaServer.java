package io.cctflow.servers;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.cctflow.servers.internal.KafkaBrokerMain;
import io.cctflow.servers.internal.KafkaDataDir;
import io.cctflow.servers.internal.KafkaProcess;
import io.cctflow.servers.internal.PortTakenException;
import io.cctflow.servers.internal.Ports;
import io.cctflow.servers.internal.Topics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker in KRaft combined mode (broker and controller in one node),
 * running as a child JVM with the current class path, listening on 127.0.0.1 only.
 *
 * <p>Everything lives in the data directory: {@code server.properties} (rewritten on each
 * start), {@code ports.properties} (the ports of the first start, reused on every later start
 * so the stored KRaft voter address stays valid), {@code logs/} (the partitions and the
 * metadata log) and {@code kafka.log} (the broker's output, appended to). A data directory can
 * be stopped and started again; its topics and records survive.
 *
 * <p>The broker stops when {@link #close()} is called, or when this JVM dies (the child
 * watches its standard input, see {@link KafkaBrokerMain}). No shutdown hook is registered:
 * the caller decides when to stop. Instances are thread-safe.
 */
public final class KafkaServer implements AutoCloseable {

    /** File in the data directory that keeps the ports of the first start. */
    public static final String PORTS_FILE = KafkaDataDir.PORTS_FILE;
    /** The broker's standard output and error, appended to on each start. */
    public static final String LOG_FILE = KafkaDataDir.LOG_FILE;

    private static final Logger LOG = LoggerFactory.getLogger(KafkaServer.class);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(30);

    private final Path dataDir;
    private final int port;
    private final int controllerPort;
    private final Process process;
    private final Duration startupTime;
    private final AtomicBoolean closed = new AtomicBoolean();

    private KafkaServer(Path dataDir, int port, int controllerPort, Process process, Duration startupTime) {
        this.dataDir = dataDir;
        this.port = port;
        this.controllerPort = controllerPort;
        this.process = process;
        this.startupTime = startupTime;
    }

    /** Starts a broker on free ports (or the ports stored in {@code dataDir}) with the defaults. */
    public static KafkaServer start(Path dataDir) {
        return builder(dataDir).start();
    }

    /** Options for a broker whose files live in {@code dataDir} (created if missing). */
    public static Builder builder(Path dataDir) {
        return new Builder(dataDir);
    }

    /** {@code 127.0.0.1:port}, for {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return Ports.LOOPBACK + ":" + port;
    }

    public int port() {
        return port;
    }

    public int controllerPort() {
        return controllerPort;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The broker's output: read it when something went wrong. */
    public Path logFile() {
        return dataDir.resolve(LOG_FILE);
    }

    /** Time from the call to {@code start()} until the broker answered an admin request. */
    public Duration startupTime() {
        return startupTime;
    }

    /** True until the child process has exited. */
    public boolean isRunning() {
        return process.isAlive();
    }

    /** Creates a topic with replication factor 1; see {@link #createTopics}. */
    public void createTopic(String name, int partitions, Map<String, String> configs) {
        createTopics(Map.of(name, partitions), configs);
    }

    /**
     * Creates the topics, each with its number of partitions, replication factor 1 and the
     * same topic configs. Idempotent: a topic that exists is left as it is. Returns when every
     * partition has a leader.
     *
     * @throws IllegalStateException if the broker refuses a topic or does not answer in 30 s
     */
    public void createTopics(Map<String, Integer> nameToPartitions, Map<String, String> configs) {
        Topics.create(bootstrapServers(), nameToPartitions, configs, TOPIC_TIMEOUT);
    }

    /**
     * Stops the broker: SIGTERM, which Kafka handles with a clean shutdown, then after 20 s a
     * forced kill. Blocks until the process is gone; later calls return at once.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long startNanos = System.nanoTime();
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("Kafka (pid {}) did not stop within {}; killing it", process.pid(), STOP_TIMEOUT);
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(process.getOutputStream());
        }
        LOG.info("Kafka on {} stopped in {} ms", bootstrapServers(),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    }

    @Override
    public String toString() {
        return "KafkaServer[" + bootstrapServers() + ", " + dataDir + "]";
    }

    private static void closeQuietly(OutputStream stream) {
        try {
            stream.close();
        } catch (IOException ignored) {
            // the child may already be gone, which closed the pipe
        }
    }

    /** Options for {@link KafkaServer}; not thread-safe. */
    public static final class Builder {

        /** Starts on a new data directory, each on ports picked afresh, before a taken port is an error. */
        static final int PORT_ATTEMPTS = 3;

        private final Path dataDir;
        private int port;
        private int controllerPort;
        private Duration startTimeout = Duration.ofMinutes(3);
        private String maxHeap = "512m";
        private final Map<String, String> properties = new LinkedHashMap<>();
        private final List<String> jvmOptions = new ArrayList<>();
        private Consumer<KafkaDataDir.KafkaPorts> beforeLaunch = ports -> { };

        private Builder(Path dataDir) {
            this.dataDir = Objects.requireNonNull(dataDir, "dataDir");
        }

        /** Client port; default: the stored port of an earlier start, else a free one. */
        public Builder port(int port) {
            this.port = requirePort(port);
            return this;
        }

        /**
         * Controller port; default: the stored port, else a free one. Fixed once the data
         * directory is formatted, because the KRaft metadata log stores the voter's address.
         */
        public Builder controllerPort(int controllerPort) {
            this.controllerPort = requirePort(controllerPort);
            return this;
        }

        /** How long to wait for the broker to answer; default 3 min (a JVM starting on a loaded 2-core machine took over 1 min). */
        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = Objects.requireNonNull(startTimeout, "startTimeout");
            return this;
        }

        /** The child's {@code -Xmx}, e.g. {@code "512m"} (the default). */
        public Builder maxHeap(String maxHeap) {
            this.maxHeap = Objects.requireNonNull(maxHeap, "maxHeap");
            return this;
        }

        /**
         * An extra option for the child JVM, after ours so it wins, e.g.
         * {@code -XX:TieredStopAtLevel=4} for the full JIT (we start the broker with C1 only).
         */
        public Builder jvmOption(String option) {
            jvmOptions.add(Objects.requireNonNull(option, "option"));
            return this;
        }

        /** A broker setting written to {@code server.properties}, overriding ours. */
        public Builder property(String key, String value) {
            properties.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Test hook: called with the ports of each attempt before the broker is launched on them. */
        Builder beforeLaunch(Consumer<KafkaDataDir.KafkaPorts> beforeLaunch) {
            this.beforeLaunch = Objects.requireNonNull(beforeLaunch, "beforeLaunch");
            return this;
        }

        /**
         * Formats the storage if needed, starts the broker and waits until it answers. On a new
         * data directory with no port set, a port picked free can be taken by another process
         * before the broker binds it (the broker binds seconds later, once its JVM is up): then
         * the directory is formatted again on other ports, up to {@value #PORT_ATTEMPTS} times.
         *
         * @throws ServerStartException if a set or stored port is busy, the broker exits, or it
         *                              does not answer within the start timeout
         */
        public KafkaServer start() {
            long startNanos = System.nanoTime();
            KafkaDataDir data = new KafkaDataDir(dataDir);
            int attempts = port == 0 && controllerPort == 0 && !data.isFormatted() ? PORT_ATTEMPTS : 1;
            for (int attempt = 1; ; attempt++) {
                try {
                    return startOnce(data, startNanos);
                } catch (PortTakenException e) {
                    if (attempt >= attempts) {
                        throw e;
                    }
                    LOG.warn("Kafka could not bind its ports on {}; formatting again on other ports ({} of {}): {}",
                            data.path(), attempt + 1, attempts, e.getMessage().lines().findFirst().orElse(""));
                    data.forgetFormat();
                }
            }
        }

        private KafkaServer startOnce(KafkaDataDir data, long startNanos) {
            KafkaDataDir.KafkaPorts ports = data.resolvePorts(port, controllerPort);
            data.writeConfig(ports, properties);
            beforeLaunch.accept(ports);
            Process process = KafkaProcess.launch(data, !data.isFormatted(), maxHeap, jvmOptions);
            try {
                KafkaProcess.awaitReady(process, data, ports.broker(), startNanos, startTimeout);
            } catch (RuntimeException e) {
                stopForcibly(process);
                throw e;
            }
            Duration startupTime = Duration.ofNanos(System.nanoTime() - startNanos);
            KafkaServer server = new KafkaServer(data.path(), ports.broker(), ports.controller(), process, startupTime);
            LOG.info("Kafka ready on {} (controller {}) in {} ms, pid {}, data {}", server.bootstrapServers(),
                    ports.controller(), startupTime.toMillis(), process.pid(), data.path());
            return server;
        }

        /** Kills a child that did not come up and waits for it, so that its files can be reused. */
        private static void stopForcibly(Process process) {
            process.destroyForcibly();
            try {
                process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static int requirePort(int port) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("Port must be in 1..65535, was " + port);
            }
            return port;
        }
    }
}
