package io.cctflow.flink;

import io.cctflow.schema.RecordSizes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The topics the job writes or must read from the start, created at start if missing, whatever
 * deploys the job (standalone, a Flink cluster, the Kubernetes operator beside Strimzi's topics):
 * an existing topic is left as it is. One partition each, the broker's replication factor.
 */
public final class JobTopics {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private JobTopics() {
    }

    /**
     * Configs of the topics that carry the agents' records (samples and code manifests): a
     * {@code max.message.bytes} that takes the largest record an agent sends, where the broker's
     * default (1 MiB) would refuse it. For whatever creates those topics.
     */
    public static Map<String, String> agentTopicConfigs() {
        return Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(RecordSizes.TOPIC_MAX_MESSAGE_BYTES));
    }

    /** The task definitions topic: compacted, so the latest definition per id is kept for ever. */
    public static void ensureTasks(String bootstrapServers, String topic) throws Exception {
        ensure(bootstrapServers, new NewTopic(topic, Optional.of(1), Optional.empty())
                .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)),
                "the task definitions topic", "create it (compacted) yourself");
    }

    /**
     * The dead-letter topic: without it every dead letter would wait for the producer's metadata
     * and be lost (a broker may not create topics on first use).
     */
    public static void ensureDeadLetters(String bootstrapServers, String topic) throws Exception {
        ensure(bootstrapServers, new NewTopic(topic, Optional.of(1), Optional.empty()), "the dead-letter topic",
                "create it yourself");
    }

    private static void ensure(String bootstrapServers, NewTopic topic, String what, String remedy) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.createTopics(List.of(topic)).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create " + what + " '" + topic.name() + "' at "
                        + bootstrapServers + "; " + remedy + " or check the broker: " + e.getCause(), e);
            }
        }
    }
}
