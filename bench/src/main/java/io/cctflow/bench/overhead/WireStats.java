package io.cctflow.bench.overhead;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import io.cctflow.servers.TopicRecords;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What the agents of one setup put on the wire, read back from the broker: every SampleBatch in
 * the setup's topic, decoded.
 *
 * @param batches          records in the topic
 * @param samples          sum of the stacks' sample counts
 * @param truncatedSamples samples of stacks JFR cut at its depth limit
 * @param stacks           distinct stacks, summed over batches
 * @param avroBytes        sum of the record values: the Avro single-object encoding, before compression
 * @param logBytes         the partition's size on the broker: gzip-compressed record batches with
 *                         Kafka's headers, i.e. what crossed the network
 * @param samplesSeen      the agents' own {@code stats.samplesSeen}, from each instance's last batch
 * @param bytesSentStats   the agents' own {@code stats.bytesSent}, from each instance's last batch
 *                         (it counts the batches acknowledged before that batch was built)
 */
record WireStats(long batches, long samples, long truncatedSamples, long stacks, long avroBytes, long logBytes,
        long samplesSeen, long bytesSentStats) {

    private static final Duration READ_TIMEOUT = Duration.ofSeconds(60);

    /** Reads the whole of {@code topic} (one partition per agent topic is enough here). */
    static WireStats read(String bootstrap, String topic) throws ExecutionException, InterruptedException {
        long batches = 0;
        long samples = 0;
        long truncated = 0;
        long stacks = 0;
        long avroBytes = 0;
        Map<String, SampleBatch> lastPerInstance = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : TopicRecords.read(bootstrap, topic, new ByteArrayDeserializer(),
                new ByteArrayDeserializer(), READ_TIMEOUT)) {
            SampleBatch batch = decode(record.value(), topic, record.offset());
            batches++;
            avroBytes += record.value().length;
            for (Stack stack : batch.getStacks()) {
                samples += stack.getCount();
                stacks++;
                if (stack.getTruncated()) {
                    truncated += stack.getCount();
                }
            }
            lastPerInstance.merge(batch.getInstance().getInstanceId(), batch,
                    (a, b) -> a.getSequence() >= b.getSequence() ? a : b);
        }
        long seen = 0;
        long sent = 0;
        for (SampleBatch last : lastPerInstance.values()) {
            if (last.getStats() != null) {
                seen += last.getStats().getSamplesSeen();
                sent += last.getStats().getBytesSent();
            }
        }
        return new WireStats(batches, samples, truncated, stacks, avroBytes, logBytes(bootstrap, topic), seen, sent);
    }

    double avroBytesPerSample() {
        return samples == 0 ? Double.NaN : (double) avroBytes / samples;
    }

    double logBytesPerSample() {
        return samples == 0 ? Double.NaN : (double) logBytes / samples;
    }

    private static SampleBatch decode(byte[] value, String topic, long offset) {
        try {
            return SampleBatch.fromByteBuffer(ByteBuffer.wrap(value));
        } catch (Exception e) {
            throw new IllegalStateException("record at offset " + offset + " of " + topic
                    + " is not a SampleBatch: " + e, e);
        }
    }

    /** Sum of the topic's partition sizes on every broker's log directories. */
    private static long logBytes(String bootstrap, String topic) throws ExecutionException, InterruptedException {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(p)) {
            List<Integer> brokers = admin.describeCluster().nodes().get().stream().map(Node::id)
                    .collect(Collectors.toList());
            long bytes = 0;
            for (Map<String, LogDirDescription> dirs : admin.describeLogDirs(brokers).allDescriptions().get().values()) {
                for (LogDirDescription dir : dirs.values()) {
                    for (Map.Entry<TopicPartition, ReplicaInfo> replica : dir.replicaInfos().entrySet()) {
                        if (replica.getKey().topic().equals(topic)) {
                            bytes += replica.getValue().size();
                        }
                    }
                }
            }
            return bytes;
        }
    }
}
