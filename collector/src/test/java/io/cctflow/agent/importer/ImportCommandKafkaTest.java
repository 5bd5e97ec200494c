package io.cctflow.agent.importer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.cctflow.core.ExecutionId;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import io.cctflow.servers.TestServers;

/** The import command against a real Kafka broker. */
@Timeout(300)
class ImportCommandKafkaTest {
    @TempDir
    static Path dir;
    private static Path goodJfr;
    private static long goodSamples;

    /** What the command printed and returned. */
    record Run(int exitCode, String out, String err) {
    }

    @BeforeAll
    static void recordOnce() throws Exception {
        goodJfr = TestRecordings.record(dir.resolve("source.jfr"), 20);
        goodSamples = TestRecordings.executionSamples(goodJfr).size();
    }

    private static String topic() {
        String topic = "import-" + UUID.randomUUID();
        TestServers.get().createTopic(topic, 1);
        return topic;
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ImportCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void corruptJfrAmongGoodFilesIsReportedWithFileAndOffsetAndTheGoodFilesArePublished()
            throws Exception {
        Path in = Files.createDirectories(dir.resolve("mixed"));
        Files.copy(goodJfr, in.resolve("good.jfr"));
        long size = Files.size(goodJfr);
        Path corrupt = TestRecordings.truncate(goodJfr, in.resolve("corrupt.jfr"), size / 2);
        Files.writeString(in.resolve("stacks.collapsed"), String.join("\n",
                "[main];java/lang/Thread.run:840_[j];com/shop/Cart.total:17 5",
                "this-line-has-no-count",
                "[pool-1-thread-3];java/lang/Thread.run;com/shop/Cart.sum 7", ""));
        Files.writeString(in.resolve("notes.md"), "not an input: ignored");
        String topic = topic();

        Run run = run("--bootstrap-servers", TestServers.get().kafkaBootstrapServers(),
                "--topic", topic, "--service", "shop", "--version", "v1", "--window", "1s",
                "--time", "2024-05-01T12:00:00Z", in.toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.err()).contains("cctflow import: ERROR file " + corrupt
                + ": corrupt at byte offset ");
        assertThat(run.err()).contains("ERROR file " + in.resolve("stacks.collapsed")
                + ": line 2 skipped: expected '<frame>;<frame>... <count>', found no count");
        assertThat(run.err()).contains(in.resolve("good.jfr") + ": " + goodSamples + " samples in ");
        assertThat(run.out()).contains("1 files imported, 2 failed; " + (goodSamples + 12) + " samples");

        Map<String, List<SampleBatch>> byInstance = consume(topic, goodSamples + 12).stream()
                .collect(Collectors.groupingBy(b -> b.getInstance().getInstanceId()));
        assertThat(byInstance).containsOnlyKeys("good", "stacks");
        assertThat(samples(byInstance.get("good"))).isEqualTo(goodSamples);
        assertThat(samples(byInstance.get("stacks"))).isEqualTo(12);
        SampleBatch collapsed = byInstance.get("stacks").get(0);
        assertThat(collapsed.getWindowStartMillis()).isEqualTo(
                java.time.Instant.parse("2024-05-01T12:00:00Z").toEpochMilli());
        assertThat(collapsed.getStacks()).extracting(Stack::getThread)
                .containsExactly("main", "pool-#-thread-#");
        assertThat(collapsed.getInstance().getLabels()).containsEntry("imported.from", "stacks.collapsed");
        for (List<SampleBatch> batches : byInstance.values()) {
            assertThat(batches).extracting(SampleBatch::getSequence)
                    .containsExactlyElementsOf(range(batches.size()));
        }
    }

    @Test
    void oneInstanceForSeveralFilesContinuesItsSequenceNumbersAndExitsZero() throws Exception {
        Path in = Files.createDirectories(dir.resolve("clean"));
        Path a = Files.copy(goodJfr, in.resolve("a.jfr"));
        Path b = Files.writeString(in.resolve("b.txt"), "a.B.c;a.B.d 3\n");
        String topic = topic();

        Run run = run("--bootstrap-servers=" + TestServers.get().kafkaBootstrapServers(),
                "--topic=" + topic, "--instance=pod-7", a.toString(), b.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<SampleBatch> batches = consume(topic, goodSamples + 3);
        assertThat(batches).allSatisfy(x -> assertThat(x.getInstance().getInstanceId()).isEqualTo("pod-7"));
        assertThat(batches).extracting(SampleBatch::getSequence)
                .containsExactlyElementsOf(range(batches.size()));
        assertThat(run.out()).contains("2 files imported, 0 failed");
    }

    @Test
    void unreachableBrokerFailsTheImportWithoutWaitingOncePerBatch() throws Exception {
        Path in = Files.createDirectories(dir.resolve("nobroker"));
        Path file = Files.writeString(in.resolve("s.collapsed"), "a.B.c 1\n");

        Run run = run("--bootstrap-servers", "127.0.0.1:1", "--timeout", "1s", file.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains(file + ": FAILED: 1 samples read, 0 of 1 batches acknowledged");
    }

    @Test
    void watchImportsFilesThatAppearInTheDirectoryUntilStopped() throws Exception {
        Path watched = Files.createDirectories(dir.resolve("watched"));
        Files.writeString(watched.resolve("before.collapsed"), "a.B.c 2\n");
        String topic = topic();
        ImportOptions options = ImportOptions.parse(new String[] {"--watch", "--poll", "100ms",
            "--bootstrap-servers", TestServers.get().kafkaBootstrapServers(), "--topic", topic,
            watched.toString()});
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ImportCommand command = new ImportCommand(options, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        int[] exitCode = {-1};
        Thread watcher = new Thread(() -> exitCode[0] = command.watch(), "test-watcher");
        watcher.start();
        try {
            consume(topic, 2);
            // a recording appears (complete, as a rename makes it) while the watcher runs
            Path staging = Files.copy(goodJfr, dir.resolve("staging.jfr"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.move(staging, watched.resolve("late.jfr"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);

            List<SampleBatch> batches = consume(topic, 2 + goodSamples);
            assertThat(batches.stream().map(b -> b.getInstance().getInstanceId()).distinct())
                    .containsExactlyInAnyOrder("before", "late");
        } finally {
            command.stop();
            watcher.join(60_000);
        }
        assertThat(watcher.isAlive()).isFalse();
        assertThat(exitCode[0]).as(err.toString(StandardCharsets.UTF_8)).isZero();
    }

    @Test
    void anUnexpectedErrorInOneFileIsReportedAsABugAndTheOtherFilesAreImported() throws Exception {
        Path in = Files.createDirectories(dir.resolve("bug"));
        Path boom = Files.writeString(in.resolve("a-boom.collapsed"), "a.B.c 2\n");
        Path good = Files.writeString(in.resolve("b-good.collapsed"), "a.B.c;a.B.d 3\n");
        String topic = topic();
        ImportOptions options = ImportOptions.parse(new String[] {
            "--bootstrap-servers", TestServers.get().kafkaBootstrapServers(), "--topic", topic,
            in.toString()});
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ImportListener bug = new ImportListener() {
            @Override
            public void reading(Path file) {
                if (file.equals(boom)) {
                    throw new IllegalStateException("simulated bug");
                }
            }
        };
        ImportCommand command = new ImportCommand(options, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), bug);

        int exitCode = command.importAll();

        String stderr = err.toString(StandardCharsets.UTF_8);
        assertThat(exitCode).as(stderr).isEqualTo(1);
        assertThat(stderr).contains("cctflow import: ERROR file " + boom + ": unexpected error, a bug"
                + " in cctflow import (please report it with this line):"
                + " java.lang.IllegalStateException: simulated bug at ");
        assertThat(stderr).contains("[1/2] " + boom + ": FAILED: ");
        assertThat(stderr).contains("[2/2] " + good + ": 3 samples in 1 batches, acknowledged");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("1 files imported, 1 failed; 3 samples");
        assertThat(consume(topic, 3)).extracting(b -> b.getInstance().getInstanceId())
                .containsOnly("b-good");
    }

    /** Reads the topic until the batches hold {@code samples} samples (at most 60 s). */
    private static List<SampleBatch> consume(String topic, long samples) throws Exception {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestServers.get().kafkaBootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        List<SampleBatch> batches = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p)) {
            consumer.subscribe(List.of(topic));
            while (samples(batches) < samples && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    SampleBatch batch = SampleBatch.fromByteBuffer(ByteBuffer.wrap(r.value()));
                    var info = batch.getInstance();
                    assertThat(r.key()).isEqualTo(new ExecutionId(info.getService(), info.getVersion(),
                            info.getInstanceId()).key());
                    batches.add(batch);
                }
            }
        }
        assertThat(samples(batches)).as("samples on %s", topic).isEqualTo(samples);
        return batches;
    }

    private static long samples(List<SampleBatch> batches) {
        return batches.stream().flatMap(b -> b.getStacks().stream()).mapToLong(Stack::getCount).sum();
    }

    private static List<Long> range(int n) {
        List<Long> r = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            r.add(i);
        }
        return r;
    }
}
