package io.cctflow.bench.pipeline;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The samples job's consumer lag: end offsets of the samples topic minus the offsets the job's
 * group committed. The Flink Kafka source commits only when a checkpoint completes, so the
 * committed offset trails what the job has read by up to one checkpoint interval.
 *
 * <p>Thread-safe (the admin client is).
 */
public final class ConsumerLag implements AutoCloseable {
    /** Records in the topic, records the group committed, their difference. */
    public record Snapshot(long endOffsets, long committedOffsets, long nanoTime) {
        public long lag() {
            return endOffsets - committedOffsets;
        }
    }

    private final Admin admin;
    private final String topic;
    private final String groupId;

    public ConsumerLag(String bootstrapServers, String topic, String groupId) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        this.admin = Admin.create(p);
        this.topic = topic;
        this.groupId = groupId;
    }

    /** Sums over the topic's partitions; a partition the group has not committed yet counts from 0. */
    public Snapshot read() throws InterruptedException {
        try {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            Map<TopicPartition, OffsetSpec> partitions = admin.describeTopics(java.util.List.of(topic))
                    .allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().stream()
                    .collect(Collectors.toMap(p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(partitions).all()
                    .get(30, TimeUnit.SECONDS);
            long end = ends.values().stream().mapToLong(ListOffsetsResult.ListOffsetsResultInfo::offset).sum();
            long done = partitions.keySet().stream()
                    .mapToLong(tp -> committed.get(tp) == null ? 0 : committed.get(tp).offset()).sum();
            return new Snapshot(end, done, System.nanoTime());
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("cannot read the lag of consumer group " + groupId + ": " + e, e);
        }
    }

    @Override
    public void close() {
        admin.close();
    }
}
