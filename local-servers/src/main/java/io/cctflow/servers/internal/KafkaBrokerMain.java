package io.cctflow.servers.internal;

import org.apache.kafka.common.Uuid;

/**
 * Entry point of the Kafka child process started by {@code KafkaServer}: formats the storage
 * if asked, runs {@code kafka.Kafka} and stops the broker when the parent process goes away.
 *
 * <p>The broker stops, through Kafka's own shutdown hook, when the parent goes
 * ({@link ParentWatchdog}).
 */
public final class KafkaBrokerMain {

    private KafkaBrokerMain() {
    }

    /** Option that formats the storage first, for a new data directory. */
    static final String FORMAT = "--format";

    /**
     * Option that formats the storage of one node of a multi-node cluster with the cluster id that
     * follows it; the voters are static ({@code controller.quorum.voters} in the configuration).
     */
    public static final String FORMAT_CLUSTER = "--format-cluster";

    /** Arguments: {@code [--format | --format-cluster ID] server.properties}. */
    public static void main(String[] args) {
        ParentWatchdog.start("Kafka");
        String config = args[args.length - 1];
        if (args.length == 2 && FORMAT.equals(args[0])) {
            format(new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c", config, "--standalone"});
        } else if (args.length == 3 && FORMAT_CLUSTER.equals(args[0])) {
            format(new String[] {"format", "-t", args[1], "-c", config});
        }
        kafka.Kafka.main(new String[] {config});
    }

    /**
     * {@code kafka-storage format ...}: {@code -t <random id> -c <config> --standalone} for a new
     * cluster whose only controller is this node, {@code -t <id> -c <config>} for a node of a
     * cluster with static voters. Here rather than in the parent, so the broker's JVM loads
     * Kafka's classes once and the parent never loads them.
     */
    private static void format(String[] args) {
        System.out.println("cctflow: kafka-storage " + String.join(" ", args));
        int exit = kafka.tools.StorageTool.execute(args, System.out);
        if (exit != 0) {
            System.out.println("cctflow: kafka-storage format failed with exit code " + exit);
            System.exit(exit);
        }
    }
}
