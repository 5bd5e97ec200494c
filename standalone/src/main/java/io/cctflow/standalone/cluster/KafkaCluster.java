package io.cctflow.standalone.cluster;

import io.cctflow.servers.internal.KafkaDataDir;
import io.cctflow.servers.internal.KafkaProcess;
import io.cctflow.servers.internal.Ports;
import io.cctflow.servers.internal.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Kafka as three KRaft nodes, each broker and controller in a JVM of its own, with a static
 * quorum of the three controllers: every topic is replicated three times and needs two in-sync
 * replicas to accept a write, so one node can die without losing or refusing a batch. Data of
 * node {@code n} under {@code dir/node-n}; the ports of the first start are kept in
 * {@code dir/cluster.properties} and reused, because the quorum's addresses are stored.
 */
public final class KafkaCluster implements AutoCloseable {
    static final int NODES = 3;
    static final int REPLICATION = 3;
    static final int MIN_IN_SYNC = 2;

    private final List<ChildJvm> nodes;
    private final int[] brokerPorts;

    private KafkaCluster(List<ChildJvm> nodes, int[] brokerPorts) {
        this.nodes = nodes;
        this.brokerPorts = brokerPorts;
    }

    /** Formats the nodes on the first start, starts them and waits until the cluster has three brokers. */
    static KafkaCluster start(Path dir, Duration timeout) throws InterruptedException {
        ClusterPorts ports = ClusterPorts.of(dir);
        StringJoiner voters = new StringJoiner(",");
        for (int n = 0; n < NODES; n++) {
            voters.add((n + 1) + "@" + Ports.LOOPBACK + ":" + ports.controller[n]);
        }
        List<ChildJvm> nodes = new ArrayList<>();
        for (int n = 0; n < NODES; n++) {
            KafkaDataDir data = new KafkaDataDir(dir.resolve("node-" + (n + 1)));
            KafkaDataDir.KafkaPorts own = new KafkaDataDir.KafkaPorts(ports.broker[n], ports.controller[n]);
            data.writeConfig(own, nodeConfig(n + 1, voters.toString()));
            List<String> options = data.isFormatted() ? List.of() : List.of("--format-cluster", ports.clusterId);
            // a restart after kill -9 must not format again: the data directory is formatted by then
            nodes.add(ChildJvm.start("kafka-" + (n + 1), data.logFile(), () -> KafkaProcess.launch(data,
                    data.isFormatted() ? List.of() : options, "384m", List.of())));
        }
        KafkaCluster cluster = new KafkaCluster(nodes, ports.broker);
        cluster.awaitBrokers(NODES, timeout);
        return cluster;
    }

    private static Map<String, String> nodeConfig(int nodeId, String voters) {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("node.id", Integer.toString(nodeId));
        c.put("controller.quorum.voters", voters);
        c.put("controller.quorum.bootstrap.servers", "");
        c.put("offsets.topic.replication.factor", Integer.toString(REPLICATION));
        c.put("transaction.state.log.replication.factor", Integer.toString(REPLICATION));
        c.put("transaction.state.log.min.isr", Integer.toString(MIN_IN_SYNC));
        c.put("share.coordinator.state.topic.replication.factor", Integer.toString(REPLICATION));
        c.put("share.coordinator.state.topic.min.isr", Integer.toString(MIN_IN_SYNC));
        c.put("default.replication.factor", Integer.toString(REPLICATION));
        c.put("min.insync.replicas", Integer.toString(MIN_IN_SYNC));
        // a broker killed with -9 comes back with unflushed segments; it recovers them and catches
        // up from the leaders, never becoming leader with less than what was acknowledged
        c.put("unclean.leader.election.enable", "false");
        return c;
    }

    /** {@code host:port} of every broker. */
    public String bootstrapServers() {
        StringJoiner s = new StringJoiner(",");
        for (int port : brokerPorts) {
            s.add(Ports.LOOPBACK + ":" + port);
        }
        return s.toString();
    }

    public List<ChildJvm> nodes() {
        return nodes;
    }

    /**
     * Creates the topics (name to partitions, with {@code configs}) replicated three times with
     * {@code min.insync.replicas} two; existing ones are left as they are.
     */
    public void createTopics(Map<String, Integer> partitions, Map<String, String> configs) throws Exception {
        Map<String, String> all = new LinkedHashMap<>(configs);
        all.put("min.insync.replicas", Integer.toString(MIN_IN_SYNC));
        try (Admin admin = Admin.create(Topics.adminProperties(bootstrapServers(), "cctflow-cluster-topics"))) {
            List<NewTopic> topics = new ArrayList<>();
            partitions.forEach((name, count) -> topics.add(new NewTopic(name, count, (short) REPLICATION).configs(all)));
            for (var f : admin.createTopics(topics).values().values()) {
                try {
                    f.get(1, TimeUnit.MINUTES);
                } catch (java.util.concurrent.ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw e;
                    }
                }
            }
        }
    }

    /** Waits until {@code count} brokers are registered and unfenced. */
    void awaitBrokers(int count, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Throwable last = null;
        try (Admin admin = Admin.create(Topics.adminProperties(bootstrapServers(), "cctflow-cluster-ready"))) {
            while (System.nanoTime() < deadline) {
                for (ChildJvm node : nodes) {
                    if (!node.isAlive()) {
                        throw new IllegalStateException(node.name() + " exited while starting; see " + node.log());
                    }
                }
                try {
                    int up = admin.describeCluster(new org.apache.kafka.clients.admin.DescribeClusterOptions()
                            .timeoutMs(2000)).nodes().get().size();
                    if (up >= count) {
                        return;
                    }
                } catch (java.util.concurrent.ExecutionException e) {
                    last = e.getCause();
                }
                Thread.sleep(250); // polling a starting server
            }
        }
        throw new IllegalStateException("Kafka did not reach " + count + " brokers within " + timeout + " (" + last
                + "); see " + nodes.get(0).log());
    }

    @Override
    public void close() {
        for (ChildJvm node : nodes) {
            node.process().destroy();
        }
        for (ChildJvm node : nodes) {
            node.close();
        }
    }

    /** The ports and cluster id of the first start, kept for later ones. */
    private static final class ClusterPorts {
        final int[] broker = new int[NODES];
        final int[] controller = new int[NODES];
        String clusterId;

        static ClusterPorts of(Path dir) {
            Path file = dir.resolve("cluster.properties");
            ClusterPorts p = new ClusterPorts();
            if (Files.exists(file)) {
                Properties stored = PropertyFiles.read(file);
                p.clusterId = stored.getProperty("cluster.id");
                for (int n = 0; n < NODES; n++) {
                    p.broker[n] = Integer.parseInt(stored.getProperty("broker." + (n + 1)));
                    p.controller[n] = Integer.parseInt(stored.getProperty("controller." + (n + 1)));
                }
                return p;
            }
            int[] free = Ports.free(2 * NODES);
            Properties values = new Properties();
            p.clusterId = org.apache.kafka.common.Uuid.randomUuid().toString();
            values.setProperty("cluster.id", p.clusterId);
            for (int n = 0; n < NODES; n++) {
                p.broker[n] = free[2 * n];
                p.controller[n] = free[2 * n + 1];
                values.setProperty("broker." + (n + 1), Integer.toString(p.broker[n]));
                values.setProperty("controller." + (n + 1), Integer.toString(p.controller[n]));
            }
            PropertyFiles.write(file, values, "ports and id of this Kafka cluster, reused on restart");
            return p;
        }
    }
}
