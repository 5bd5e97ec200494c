package io.cctflow.servers.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import io.cctflow.servers.ServerStartException;

/**
 * The files of one single-node KRaft broker: {@code server.properties}, {@code ports.properties},
 * {@code logs/} and {@code kafka.log}. Not thread-safe.
 */
public final class KafkaDataDir {

    public static final String PORTS_FILE = "ports.properties";
    /** Pairs of free ports picked before a busy one is an error. */
    private static final int PICK_ATTEMPTS = 10;
    public static final String LOG_FILE = "kafka.log";

    /** The client and controller ports of a broker. */
    public record KafkaPorts(int broker, int controller) {
    }

    private final Path dir;

    /** {@code dir} is created if missing. */
    public KafkaDataDir(Path dir) {
        this.dir = Directories.create(dir);
    }

    public Path path() {
        return dir;
    }

    public Path logFile() {
        return dir.resolve(LOG_FILE);
    }

    public Path configFile() {
        return dir.resolve("server.properties");
    }

    /** True once {@code kafka-storage format} has run here (see {@link KafkaBrokerMain}). */
    public boolean isFormatted() {
        return Files.exists(dir.resolve("logs").resolve("meta.properties"));
    }

    /**
     * The ports to use, remembered for the next start. A requested port (0: none) wins, then
     * the stored one, then a free one; the controller port cannot change once formatted,
     * because the KRaft metadata log holds the voter's address.
     *
     * @throws ServerStartException if the controller port would change
     * @throws PortTakenException   if a port is busy
     */
    public KafkaPorts resolvePorts(int requestedBroker, int requestedController) {
        Path file = dir.resolve(PORTS_FILE);
        // before the first successful format nothing depends on the ports yet
        Properties stored = isFormatted() ? PropertiesFiles.read(file) : new Properties();
        int storedBroker = Integer.parseInt(stored.getProperty("broker.port", "0"));
        int storedController = Integer.parseInt(stored.getProperty("controller.port", "0"));
        if (requestedController != 0 && storedController != 0 && requestedController != storedController) {
            throw new ServerStartException("Kafka data directory " + dir + " was formatted with controller port "
                    + storedController + " (see " + file + "); it cannot change to " + requestedController
                    + ". Use that port, or a new data directory.");
        }
        // a port picked free a moment ago can be busy now (another process, or a child starting
        // beside this one, took it): pick again a few times before giving up. Requested and
        // stored ports stay what they are. Ports found free are used as found: probing them a second
        // time only adds a moment in which they can be taken
        // picking again only helps a port that is picked: with both set or stored, one look
        boolean picks = firstNonZero(requestedBroker, storedBroker, 0) == 0
                || firstNonZero(requestedController, storedController, 0) == 0;
        int broker;
        int controller;
        boolean free;
        int attempt = 0;
        do {
            int[] fresh = Ports.free(2);
            broker = firstNonZero(requestedBroker, storedBroker, fresh[0]);
            controller = firstNonZero(requestedController, storedController, fresh[1]);
            free = Ports.isFree(broker) && Ports.isFree(controller);
        } while (!free && picks && ++attempt < PICK_ATTEMPTS);
        if (broker == controller) {
            throw new ServerStartException("Kafka broker and controller ports must differ, both are " + broker);
        }
        for (int port : new int[] {broker, controller}) {
            if (!free && !Ports.isFree(port)) {
                throw new PortTakenException("Port " + port + " on " + Ports.LOOPBACK + " is in use, so Kafka cannot"
                        + " start on data directory " + dir + " (" + PortHolders.describe(port)
                        + (picks ? ", after " + attempt + " picks" : "") + "). Is a broker on this directory still running?"
                        + " Ports are kept in " + file + " so that restarts reuse them.");
            }
        }
        PropertiesFiles.write(file, Map.of("broker.port", Integer.toString(broker),
                "controller.port", Integer.toString(controller)), "ports of this Kafka data directory, reused on restart");
        return new KafkaPorts(broker, controller);
    }

    /**
     * Forgets a format and the ports of a start that never served (its ports were taken): the
     * next start formats again on other ports. Only for a directory this start formatted itself,
     * since the partitions go too.
     */
    public void forgetFormat() {
        Directories.deleteRecursively(dir.resolve("logs"));
        try {
            Files.deleteIfExists(dir.resolve(PORTS_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not delete " + dir.resolve(PORTS_FILE), e);
        }
    }

    /** Writes {@code server.properties} for a combined broker+controller node, then {@code overrides}. */
    public void writeConfig(KafkaPorts ports, Map<String, String> overrides) {
        String host = Ports.LOOPBACK;
        String plaintext = "PLAINTEXT://" + host + ":" + ports.broker();
        String controller = "CONTROLLER://" + host + ":" + ports.controller();
        Map<String, String> p = new LinkedHashMap<>();
        p.put("node.id", "1");
        p.put("process.roles", "broker,controller");
        p.put("listeners", plaintext + "," + controller);
        p.put("advertised.listeners", plaintext + "," + controller);
        p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.put("inter.broker.listener.name", "PLAINTEXT");
        p.put("controller.listener.names", "CONTROLLER");
        p.put("controller.quorum.bootstrap.servers", host + ":" + ports.controller());
        p.put("log.dirs", dir.resolve("logs").toString());
        // one broker: internal topics must not ask for more replicas than exist, or consumer
        // groups and transactions silently never start
        p.put("offsets.topic.replication.factor", "1");
        p.put("offsets.topic.num.partitions", "10");
        p.put("transaction.state.log.replication.factor", "1");
        p.put("transaction.state.log.min.isr", "1");
        p.put("share.coordinator.state.topic.replication.factor", "1");
        p.put("share.coordinator.state.topic.min.isr", "1");
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("auto.create.topics.enable", "false");
        p.put("num.partitions", "1");
        // small machine: fewer threads, and a 16 MiB (not 128 MiB) log-cleaner buffer in a 512 MiB heap
        p.put("num.network.threads", "2");
        p.put("num.io.threads", "4");
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(16 * 1024 * 1024));
        p.putAll(overrides);
        PropertiesFiles.write(configFile(), p, "written by cctflow KafkaServer on each start");
    }

    /** Appends a line of our own to {@code kafka.log}, between the broker's lines. */
    public void appendToLog(String text) {
        PropertiesFiles.append(logFile(), text);
    }

    private static int firstNonZero(int a, int b, int c) {
        return a != 0 ? a : b != 0 ? b : c;
    }
}
