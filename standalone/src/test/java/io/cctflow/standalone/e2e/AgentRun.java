package io.cctflow.standalone.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cctflow.core.ExecutionId;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One run of a test workload in a child JVM with the shipped agent jar, publishing to a real
 * broker: it runs its minimum seconds and then until Kafka holds more than the wanted samples of
 * its execution (JFR delivers a varying share of its nominal samples, fewer on a busy machine),
 * under a deadline; then its standard input is closed, which ends it, and the agent flushes the
 * rest at exit.
 */
public final class AgentRun {
    private AgentRun() {
    }

    /**
     * @param agentArgs the agent's options besides bootstrap.servers, topic, service, version and instance
     * @param mainAndArgs the workload class (test or main code of this module) and its arguments
     */
    public static void run(String bootstrapServers, String topic, ExecutionId execution, String agentArgs,
            long minSamples, Duration deadline, String... mainAndArgs) throws Exception {
        run(bootstrapServers, topic, execution, List.of(), agentArgs, minSamples, Duration.ZERO, deadline, mainAndArgs);
    }

    /**
     * As above, with JVM options for the workload's JVM (e.g. the demo's {@code DemoProcess.JVM_OPTIONS}),
     * and a time the workload runs at least however soon its samples arrive (e.g. so that they
     * span several of the job's windows).
     */
    public static void run(String bootstrapServers, String topic, ExecutionId execution, List<String> jvmOptions,
            String agentArgs, long minSamples, Duration minimumRun, Duration deadline, String... mainAndArgs)
            throws Exception {
        Path agentJar = Path.of(System.getProperty("cctflow.agent.jar"));
        assertThat(agentJar).as("shipped agent jar (built by the collector module)").isRegularFile();
        String args = "bootstrap.servers=" + bootstrapServers + ",topic=" + topic + ",service=" + execution.service()
                + ",version=" + execution.version() + ",instance=" + execution.instance() + "," + agentArgs;
        Path log = Files.createTempFile("e2e-workload", ".log");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:FlightRecorderOptions:stackdepth=256"));
        command.addAll(jvmOptions);
        command.addAll(List.of(
                "-javaagent:" + agentJar + "=" + args,
                // test workloads, and the demo's (main code)
                "-cp", Path.of("target", "test-classes").toAbsolutePath() + File.pathSeparator
                        + Path.of("target", "classes").toAbsolutePath()));
        command.addAll(Arrays.asList(mainAndArgs));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long minimumEnd = System.nanoTime() + minimumRun.toNanos();
        try {
            awaitSamples(bootstrapServers, topic, execution, minSamples, minimumEnd, deadline, child, log);
        } finally {
            child.getOutputStream().close();
        }
        assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("workload exits; log %s", log).isTrue();
        assertThat(child.exitValue()).as("workload exit code; log: %s", Files.readString(log)).isZero();
    }

    /**
     * Waits until the batches of {@code execution} in {@code topic} hold more than {@code minSamples}
     * and {@link System#nanoTime()} has passed {@code minimumEnd}.
     */
    private static void awaitSamples(String bootstrapServers, String topic, ExecutionId execution, long minSamples,
            long minimumEnd, Duration deadline, Process child, Path log) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        byte[] key = execution.key().getBytes(StandardCharsets.UTF_8);
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long[] samples = {0};
            await().atMost(deadline).pollInSameThread().pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                    .failFast("the workload ended early; log " + log, () -> !child.isAlive())
                    .until(() -> {
                        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofSeconds(1))) {
                            if (Arrays.equals(r.key(), key)) {
                                samples[0] += SampleBatch.fromByteBuffer(ByteBuffer.wrap(r.value())).getStacks()
                                        .stream().mapToLong(Stack::getCount).sum();
                            }
                        }
                        return samples[0] > minSamples && System.nanoTime() - minimumEnd >= 0;
                    });
        }
    }
}
