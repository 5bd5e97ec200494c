package io.cctflow.servers.internal;

import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

import io.cctflow.servers.KafkaServer;
import io.cctflow.servers.Neo4jProcess;
import io.cctflow.servers.ServerStartException;

/**
 * {@link KafkaServer} and {@link Neo4jProcess}, each a child process, in one directory. Neo4j runs
 * apart from the tests' JVM so that a test can kill it with SIGKILL and start it again on its
 * store.
 */
public final class EmbeddedBackend implements Backend {

    /** The Neo4j child's heap: the surefire JVMs that held Neo4j before ran with 2 GiB for tests and database. */
    static final String NEO4J_HEAP = "1g";

    private final Path dir;
    private final boolean keepData;
    private final KafkaServer kafka;
    private final Neo4jProcess neo4j;

    private EmbeddedBackend(Path dir, boolean keepData, KafkaServer kafka, Neo4jProcess neo4j) {
        this.dir = dir;
        this.keepData = keepData;
        this.kafka = kafka;
        this.neo4j = neo4j;
    }

    /**
     * Starts both servers at the same time under {@code dir}; if either fails, stops the other.
     * {@code keepData} false deletes {@code dir} on {@link #close()}.
     */
    public static EmbeddedBackend start(Path dir, boolean keepData) {
        FutureTask<KafkaServer> kafkaStart = new FutureTask<>(() -> KafkaServer.start(dir.resolve("kafka")));
        Thread starter = new Thread(kafkaStart, "cctflow-kafka-start");
        starter.setDaemon(true);
        starter.start();
        Neo4jProcess neo4j;
        try {
            neo4j = Neo4jProcess.start(dir.resolve("neo4j"), NEO4J_HEAP);
        } catch (RuntimeException e) {
            closeWhenStarted(kafkaStart);
            throw e;
        }
        try {
            return new EmbeddedBackend(dir, keepData, kafkaStart.get(), neo4j);
        } catch (ExecutionException e) {
            neo4j.close();
            if (e.getCause() instanceof RuntimeException) {
                throw (RuntimeException) e.getCause();
            }
            throw new ServerStartException("Kafka did not start: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            neo4j.close();
            closeWhenStarted(kafkaStart);
            Thread.currentThread().interrupt();
            throw new ServerStartException("Interrupted while starting Kafka", e);
        }
    }

    private static void closeWhenStarted(FutureTask<KafkaServer> kafkaStart) {
        try {
            kafkaStart.get().close();
        } catch (ExecutionException e) {
            // it failed too; nothing to stop
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public KafkaServer kafka() {
        return kafka;
    }

    public Neo4jProcess neo4j() {
        return neo4j;
    }

    @Override
    public String kafkaBootstrapServers() {
        return kafka.bootstrapServers();
    }

    @Override
    public String neo4jUri() {
        return neo4j.boltUri();
    }

    /** Shuts the database down cleanly (SIGTERM); its store stays in place. */
    @Override
    public void suspendNeo4j() {
        neo4j.stop();
    }

    /** SIGKILL to the database's process; its store stays as the kill left it. */
    @Override
    public void killNeo4j() {
        neo4j.kill();
    }

    /** Starts the database again on its store, with the same Bolt port. */
    @Override
    public void resumeNeo4j() {
        neo4j.restart();
    }

    @Override
    public String describe() {
        return "Kafka " + kafka.bootstrapServers() + " (child pid up in " + kafka.startupTime().toMillis() + " ms), Neo4j "
                + neo4j.boltUri() + " (child JVM up in " + neo4j.startupTime().toMillis() + " ms), data in " + dir
                + (keepData ? " (kept)" : " (deleted on exit)");
    }

    @Override
    public void close() {
        // stop both at once: Kafka's clean shutdown takes a few seconds on its own
        Thread kafkaStop = new Thread(kafka::close, "cctflow-kafka-stop");
        kafkaStop.start();
        try {
            neo4j.close();
        } catch (RuntimeException e) {
            System.err.println("cctflow: stopping Neo4j failed: " + e);
        }
        try {
            kafkaStop.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!keepData && !kafka.isRunning() && !neo4j.isRunning()) {
            try {
                Directories.deleteRecursively(dir);
            } catch (RuntimeException e) {
                System.err.println("cctflow: could not delete " + dir + ": " + e);
            }
        }
    }
}
