package io.cctflow.flink.task;

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

/** The task definitions topic: compacted, so the latest definition per id is kept for ever. */
public final class TaskTopic {
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private TaskTopic() {
    }

    /**
     * Creates the topic (one partition, compacted, the broker's replication factor) if it does not
     * exist; an existing topic is left as it is.
     */
    public static void ensure(String bootstrapServers, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            NewTopic newTopic = new NewTopic(topic, Optional.of(1), Optional.empty())
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            admin.createTopics(List.of(newTopic)).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create the task definitions topic '" + topic + "' at "
                        + bootstrapServers + "; create it (compacted) yourself or check the broker: " + e.getCause(), e);
            }
        }
    }
}
