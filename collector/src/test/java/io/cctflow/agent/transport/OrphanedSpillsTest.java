package io.cctflow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.cctflow.agent.SampleTopic;
import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.core.ExecutionId;
import io.cctflow.schema.AgentStats;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import io.cctflow.servers.TestServers;

/**
 * A restarted JVM (default instance id {@code <host>-<pid>}, so a new execution) sends what its
 * dead predecessor spilled, under the predecessor's execution and sequences, exactly once, and
 * deletes its directory; a directory a live process holds is left alone (issue 30, item 7). Real
 * broker ({@link TestServers}), real file locks, the live holder in a process of its own.
 */
class OrphanedSpillsTest {
    private static final String DEAD = new ExecutionId("shop", "v1", "host-111").key();
    private static final String LIVE = new ExecutionId("shop", "v1", "host-222").key();
    private static final String OTHER_SERVICE = new ExecutionId("cart", "v1", "host-333").key();
    private static final String OWN = new ExecutionId("shop", "v2", "host-444").key();

    @TempDir
    Path root;

    private static byte[] batch(String executionKey, long sequence) throws Exception {
        ExecutionId e = ExecutionId.fromKey(executionKey);
        ByteBuffer buffer = SampleBatch.newBuilder()
                .setInstance(InstanceInfo.newBuilder().setService(e.service()).setVersion(e.version())
                        .setInstanceId(e.instance()).setHost("host").setPid(1).setStartTimeMillis(0).build())
                .setWindowStartMillis(sequence * 10).setWindowEndMillis(sequence * 10 + 10).setSequence(sequence)
                .setSamplingPeriodMillis(20)
                .setMethods(List.of(new MethodRef("a.B", "c", "()V")))
                .setStacks(List.of(new Stack(List.of(0), List.of(0), "main", false, sequence + 1)))
                .setStats(AgentStats.newBuilder().setSamplesSeen(1).setSamplesTruncated(0).setSamplesDropped(0)
                        .setBatchesSent(0).setBatchesDropped(0).setBytesSent(0).build())
                .build().toByteBuffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** A directory as a run of {@code key} leaves it at exit: owner file, batches, not locked. */
    private Path spilled(String key, int batches) throws Exception {
        SpillDirectory dir = SpillDirectory.forExecution(root, key);
        new SpillOwner(SendQueue.BATCHES, key).writeTo(dir.path());
        for (long seq = 0; seq < batches; seq++) {
            dir.write(1_000, seq, batch(key, seq));
        }
        return dir.path();
    }

    @Test
    @Timeout(180)
    void aDeadPredecessorsBatchesArriveExactlyOnceAndItsDirectoryGoesWhileALiveOnesStays() throws Exception {
        String topic = "orphaned-spills-" + System.nanoTime();
        TestServers.get().createTopic(topic, 1);
        Path dead = spilled(DEAD, 3);
        Files.write(dead.resolve(SpillDirectory.fileName(1_000, 3) + ".tmp"), new byte[] {1, 2, 3}); // died mid-write
        Path live = spilled(LIVE, 2);
        Path otherService = spilled(OTHER_SERVICE, 1);

        Process holder = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-cp",
                System.getProperty("java.class.path"), SpillLockHolder.class.getName(),
                live.resolve(SpillDirectory.LOCK_FILE).toString()).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(),
                StandardCharsets.UTF_8))) {
            assertThat(out.readLine()).isEqualTo("locked");

            AgentCounters counters = new AgentCounters();
            SendQueue queue = SendQueue.withSpill(1 << 20, root, OWN, 1 << 20, 2_000, counters,
                    RateLimitedLog.perMinute(), System::nanoTime);
            Properties settings = KafkaBatchSender.producerProperties(TestServers.get().kafkaBootstrapServers());
            KafkaBatchSender sender = new KafkaBatchSender(new KafkaProducer<>(settings), topic, OWN, queue, counters,
                    new Random(1), System::nanoTime, RateLimitedLog.perMinute());
            sender.start();
            OrphanedSpills orphans = OrphanedSpills.start(sender, topic, queue.spillDirectory(), "shop", 1 << 20,
                    1 << 20);
            try {
                await().atMost(Duration.ofSeconds(120)).until(orphans::isDone);
                assertThat(Files.exists(dead)).as("the dead predecessor's directory is deleted").isFalse();
                List<SampleBatch> received = SampleTopic.readUntil(topic, b -> b.size() >= 3, Duration.ofSeconds(60));
                assertThat(received).extracting(SampleBatch::getSequence).containsExactly(0L, 1L, 2L);
                assertThat(received).allSatisfy(b -> assertThat(b.getInstance().getInstanceId()).isEqualTo("host-111"));
                assertThat(orphans.adopted()).isEqualTo(1);
                assertThat(orphans.leftAlone()).isEqualTo(1);
                assertThat(orphans.failures()).isZero();
                assertThat(orphans.counters().getBatchesSent()).isEqualTo(3);
                assertThat(orphans.counters().getBatchesDropped()).as("the partial file").isEqualTo(1);
                // the live agent's and the other service's directories are as they were
                assertThat(new SpillDirectory[] {SpillDirectory.existing(live), SpillDirectory.existing(otherService)})
                        .extracting(d -> d.list().size()).containsExactly(2, 1);
            } finally {
                orphans.close(Duration.ofSeconds(5));
                sender.close(Duration.ofSeconds(5));
            }
            // exactly once: nothing more arrives (a marker batch of our own, sent after, is the last record)
            SendQueue marker = SendQueue.inMemory(1 << 20, counters, RateLimitedLog.perMinute(), System::nanoTime);
            KafkaBatchSender markerSender = new KafkaBatchSender(new KafkaProducer<>(settings), topic, OWN, marker,
                    counters, new Random(2), System::nanoTime, RateLimitedLog.perMinute());
            markerSender.start();
            markerSender.sendEncoded(99, batch(OWN, 99));
            List<SampleBatch> all = SampleTopic.readUntil(topic,
                    b -> b.stream().anyMatch(x -> x.getSequence() == 99), Duration.ofSeconds(60));
            markerSender.close(Duration.ofSeconds(5));
            assertThat(all).extracting(b -> b.getInstance().getInstanceId() + "#" + b.getSequence())
                    .containsExactly("host-111#0", "host-111#1", "host-111#2", "host-444#99");
        } finally {
            holder.getOutputStream().close();
            holder.waitFor();
        }
        assertThat(Map.of("live", Files.exists(live), "other", Files.exists(otherService)))
                .containsEntry("live", true).containsEntry("other", true);
    }
}
