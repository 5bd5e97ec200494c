package io.cctflow.servers.internal;

import java.time.Duration;
import java.util.concurrent.CompletionException;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports.Binding;
import io.cctflow.servers.ServerStartException;
import io.cctflow.servers.TestServers;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Neo4jContainer;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.lifecycle.Startables;
import org.testcontainers.utility.DockerImageName;

/**
 * Kafka and Neo4j in Docker containers via Testcontainers. Only load this class after checking
 * that Testcontainers is on the class path: it is an optional dependency.
 */
public final class ContainerBackend implements Backend {

    /** Same major version as the broker we embed (4.2); 4.1.0 is a published apache/kafka tag. */
    public static final String KAFKA_IMAGE = "apache/kafka:4.1.0";
    /** Same line as the embedded Neo4j (5.26 LTS). */
    public static final String NEO4J_IMAGE = "neo4j:5.26";

    private static final int BOLT_PORT = 7687;
    private static final Duration RESTART_TIMEOUT = Duration.ofMinutes(3);

    private final KafkaContainer kafka;
    private final Neo4jContainer<?> neo4j;
    private final long startMillis;
    private boolean neo4jKilled;

    private ContainerBackend(KafkaContainer kafka, Neo4jContainer<?> neo4j, long startMillis) {
        this.kafka = kafka;
        this.neo4j = neo4j;
        this.startMillis = startMillis;
    }

    /** True if Testcontainers can reach a Docker engine; never throws. */
    public static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** Starts both containers in parallel; on failure stops whichever started. */
    public static ContainerBackend start() {
        // the same single-broker settings as KafkaServer writes, so tests see the same broker
        KafkaContainer kafka = new KafkaContainer(DockerImageName.parse(KAFKA_IMAGE))
                .withEnv("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1")
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1")
                .withEnv("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_REPLICATION_FACTOR", "1")
                .withEnv("KAFKA_SHARE_COORDINATOR_STATE_TOPIC_MIN_ISR", "1")
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0")
                .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                .withEnv("KAFKA_NUM_PARTITIONS", "1");
        // Bolt on a fixed host port: Docker maps a published port anew when a killed container
        // starts again, and a running job keeps the address it was given
        int boltPort = Ports.free();
        Neo4jContainer<?> neo4j = new Neo4jContainer<>(DockerImageName.parse(NEO4J_IMAGE))
                .withoutAuthentication()
                .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withPortBindings(
                        new PortBinding(Binding.bindPort(boltPort), ExposedPort.tcp(BOLT_PORT))));
        long startNanos = System.nanoTime();
        try {
            Startables.deepStart(kafka, neo4j).join();
        } catch (RuntimeException e) {
            kafka.stop();
            neo4j.stop();
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            throw new ServerStartException("Testcontainers could not start " + KAFKA_IMAGE + " and " + NEO4J_IMAGE
                    + ": " + cause + ". Without a Docker engine, set -D" + TestServers.MODE_PROPERTY
                    + "=embedded to use local servers.", cause);
        }
        return new ContainerBackend(kafka, neo4j, (System.nanoTime() - startNanos) / 1_000_000);
    }

    @Override
    public String kafkaBootstrapServers() {
        return kafka.getBootstrapServers();
    }

    /** Pauses the container: the port stays mapped but nothing answers. */
    @Override
    public synchronized void suspendNeo4j() {
        neo4j.getDockerClient().pauseContainerCmd(neo4j.getContainerId()).exec();
    }

    /** {@code docker kill}: SIGKILL to the container's processes; its file system stays. */
    @Override
    public synchronized void killNeo4j() {
        neo4j.getDockerClient().killContainerCmd(neo4j.getContainerId()).withSignal("KILL").exec();
        neo4jKilled = true;
    }

    /** Unpauses the container, or starts the killed one again and waits until Bolt answers. */
    @Override
    public synchronized void resumeNeo4j() {
        if (!neo4jKilled) {
            neo4j.getDockerClient().unpauseContainerCmd(neo4j.getContainerId()).exec();
            return;
        }
        neo4j.getDockerClient().startContainerCmd(neo4j.getContainerId()).exec();
        neo4jKilled = false;
        BoltPing.await(neo4jUri(), RESTART_TIMEOUT);
    }

    @Override
    public String neo4jUri() {
        return neo4j.getBoltUrl();
    }

    @Override
    public String describe() {
        return "Kafka " + kafka.getBootstrapServers() + " (" + KAFKA_IMAGE + "), Neo4j " + neo4j.getBoltUrl()
                + " (" + NEO4J_IMAGE + "), both containers up in " + startMillis + " ms";
    }

    @Override
    public void close() {
        try {
            kafka.stop();
        } finally {
            neo4j.stop();
        }
    }
}
