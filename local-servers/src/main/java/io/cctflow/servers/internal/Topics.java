package io.cctflow.servers.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** Idempotent topic creation against a single-broker cluster. */
public final class Topics {

    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);

    private Topics() {
    }

    /** Admin-client settings for a local broker: short timeouts, fast reconnects. */
    public static Properties adminProperties(String bootstrapServers, String clientId) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "200");
        return props;
    }

    /**
     * Creates each topic with replication factor 1 and the given configs, unless it exists
     * (an existing topic is left as it is, even if its partitions or configs differ). Returns
     * once every partition of every named topic has a leader, so producers and consumers can
     * use the topics at once.
     *
     * @throws IllegalStateException if the broker refuses a topic or does not answer in time
     */
    public static void create(String bootstrapServers, Map<String, Integer> nameToPartitions,
                              Map<String, String> configs, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<NewTopic> topics = new ArrayList<>();
        nameToPartitions.forEach((name, partitions) ->
                topics.add(new NewTopic(name, partitions, (short) 1).configs(configs)));
        try (Admin admin = Admin.create(adminProperties(bootstrapServers, "cctflow-topics"))) {
            for (Map.Entry<String, KafkaFuture<Void>> created : admin.createTopics(topics).values().entrySet()) {
                try {
                    created.getValue().get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("Could not create Kafka topic '" + created.getKey()
                                + "' on " + bootstrapServers + ": " + e.getCause(), e.getCause());
                    }
                }
            }
            awaitLeaders(admin, nameToPartitions, deadline, bootstrapServers);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka at " + bootstrapServers + " did not create topics "
                    + nameToPartitions.keySet() + " within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topics " + nameToPartitions.keySet(), e);
        }
    }

    private static void awaitLeaders(Admin admin, Map<String, Integer> topics, long deadline,
                                     String bootstrapServers) throws InterruptedException, TimeoutException {
        while (true) {
            try {
                Map<String, TopicDescription> descriptions = admin.describeTopics(topics.keySet())
                        .allTopicNames().get(remainingMillis(deadline), TimeUnit.MILLISECONDS);
                if (descriptions.values().stream().allMatch(Topics::allPartitionsLed)) {
                    return;
                }
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw new IllegalStateException("Could not describe Kafka topics " + topics.keySet()
                            + " on " + bootstrapServers + ": " + e.getCause(), e.getCause());
                }
                // the broker has not seen the controller's record yet: ask again
            }
            if (remainingMillis(deadline) <= POLL_INTERVAL.toMillis()) {
                throw new TimeoutException("partitions of " + topics.keySet() + " have no leader yet");
            }
            Thread.sleep(POLL_INTERVAL.toMillis());
        }
    }

    private static boolean allPartitionsLed(TopicDescription description) {
        for (TopicPartitionInfo partition : description.partitions()) {
            if (partition.leader() == null || partition.leader().isEmpty()) {
                return false;
            }
        }
        return !description.partitions().isEmpty();
    }

    private static long remainingMillis(long deadlineNanos) throws TimeoutException {
        long remaining = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
        if (remaining <= 0) {
            throw new TimeoutException("deadline passed");
        }
        return remaining;
    }
}
