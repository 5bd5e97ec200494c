package io.cctflow.agent.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.cctflow.agent.SampleTopic;
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
        assertThat(SampleTopic.samples(byInstance.get("good"))).isEqualTo(goodSamples);
        assertThat(SampleTopic.samples(byInstance.get("stacks"))).isEqualTo(12);
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

    @Test
    void watchImportsAFileWrittenInPlaceOnceAfterItStoppedChanging() throws Exception {
        Path watched = Files.createDirectories(dir.resolve("in-place"));
        Path growing = Files.writeString(watched.resolve("growing.collapsed"), "a.B.m0 1\n");
        String topic = topic();
        int appends = 4;
        // between each look and the next the file grows by one line, as a slow writer does
        try (Watch watch = new Watch(watched, topic, look -> {
            if (look <= appends) {
                append(growing, "a.B.m" + look + " 1\n");
            }
        })) {
            List<SampleBatch> batches = consume(topic, appends + 1);

            assertThat(batches.stream().flatMap(b -> b.getStacks().stream()).count())
                    .as("one stack per line: the whole file").isEqualTo(appends + 1);
            watch.awaitLooks(3);
            assertThat(watch.stop()).as(watch.err()).isZero();
            assertThat(occurrences(watch.err(), growing + ": ")).as(watch.err()).isEqualTo(1);
            assertThat(watch.err()).contains(growing + ": " + (appends + 1) + " samples in 1 batches,"
                    + " acknowledged");
            assertThat(watch.out()).contains("1 files imported, 0 failed");
        }
    }

    @Test
    void watchTriesAFailedRecordingAgainOnceItChangedButNotWhileItStaysTheSame() throws Exception {
        Path watched = Files.createDirectories(dir.resolve("retry"));
        long size = Files.size(goodJfr);
        Path recording = TestRecordings.unfinished(goodJfr, watched.resolve("midwrite.jfr"), size / 2);
        String topic = topic();
        try (Watch watch = new Watch(watched, topic, look -> { })) {
            String failure = "ERROR file " + recording + ": corrupt at byte offset 8: chunk 1: chunk"
                    + " size is 0";
            await().atMost(Duration.ofSeconds(60)).until(() -> watch.err().contains(failure));
            assertThat(watch.err()).contains(recording + ": will be tried again when it changes");

            watch.awaitLooks(3);
            assertThat(occurrences(watch.err(), failure)).as("tries while unchanged: %s", watch.err())
                    .isEqualTo(1);

            // JFR finishes the recording in place
            Files.write(recording, Files.readAllBytes(goodJfr));

            assertThat(consume(topic, goodSamples)).extracting(b -> b.getInstance().getInstanceId())
                    .containsOnly("midwrite");
            assertThat(watch.stop()).as(watch.err()).isZero();
            assertThat(watch.err()).contains(recording + ": " + goodSamples + " samples in ");
            assertThat(watch.out()).contains("1 files imported, 0 failed; " + goodSamples + " samples");
        }
    }

    @Test
    void watchDoesNotTryAgainAFailedFileOfWhichBatchesWereSent() throws Exception {
        Path watched = Files.createDirectories(dir.resolve("partly"));
        Path file = Files.writeString(watched.resolve("partly.collapsed"), "a.B.c 2\nno-count\n");
        String topic = topic();
        try (Watch watch = new Watch(watched, topic, look -> { })) {
            consume(topic, 2);
            await().atMost(Duration.ofSeconds(60)).until(() -> watch.err().contains(file
                    + ": not tried again: 1 of its batches were sent, and importing it again would"
                    + " publish them twice"));

            Files.writeString(file, "a.B.c 2\na.B.d 3\n"); // fixed by hand
            watch.awaitLooks(3);

            assertThat(watch.stop()).isEqualTo(1);
            assertThat(occurrences(watch.err(), file + ": FAILED")).as(watch.err()).isEqualTo(1);
            assertThat(occurrences(watch.err(), file + ": ")).as("no other try: %s", watch.err())
                    .isEqualTo(3); // the skipped line, FAILED, not tried again
            assertThat(watch.out()).contains("0 files imported, 1 failed; 2 samples");
        }
    }

    /** {@code ImportCommand.watch} on a thread of its own, told of every look it takes. */
    private static final class Watch implements AutoCloseable {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final ByteArrayOutputStream err = new ByteArrayOutputStream();
        private final AtomicInteger looks = new AtomicInteger();
        private final AtomicInteger exitCode = new AtomicInteger(-1);
        private final ImportCommand command;
        private final Thread thread;

        /** @param onLook runs on the watching thread after each look, with its number (from 1) */
        Watch(Path watched, String topic, IntConsumer onLook) throws Exception {
            ImportOptions options = ImportOptions.parse(new String[] {"--watch", "--poll", "100ms",
                "--bootstrap-servers", TestServers.get().kafkaBootstrapServers(), "--topic", topic,
                watched.toString()});
            ImportListener listener = new ImportListener() {
                @Override
                public void looked() {
                    onLook.accept(looks.incrementAndGet());
                }
            };
            command = new ImportCommand(options, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), listener);
            thread = new Thread(() -> exitCode.set(command.watch()), "test-watcher");
            thread.start();
        }

        String err() {
            return err.toString(StandardCharsets.UTF_8);
        }

        String out() {
            return out.toString(StandardCharsets.UTF_8);
        }

        /** Waits until the watcher has taken {@code more} further looks (at most 60 s). */
        void awaitLooks(int more) {
            int target = looks.get() + more;
            await().atMost(Duration.ofSeconds(60)).until(() -> looks.get() >= target);
        }

        /** Stops the watch and returns its exit code. */
        int stop() {
            command.stop();
            try {
                thread.join(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while stopping the watcher", e);
            }
            assertThat(thread.isAlive()).as("watcher still running 60 s after stop").isFalse();
            return exitCode.get();
        }

        @Override
        public void close() {
            if (thread.isAlive()) {
                stop();
            }
        }
    }

    private static void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int occurrences(String text, String part) {
        int n = 0;
        for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length())) {
            n++;
        }
        return n;
    }

    /** Reads the topic until the batches hold {@code samples} samples (at most 60 s). */
    private static List<SampleBatch> consume(String topic, long samples) {
        List<SampleBatch> batches = SampleTopic.readUntil(topic, b -> SampleTopic.samples(b) >= samples,
                Duration.ofSeconds(60));
        assertThat(SampleTopic.samples(batches)).as("samples on %s", topic).isEqualTo(samples);
        return batches;
    }

    private static List<Long> range(int n) {
        List<Long> r = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            r.add(i);
        }
        return r;
    }
}
