package io.cctflow.agent.importer;

import static io.cctflow.agent.ShippedJar.JAR;
import static io.cctflow.agent.ShippedJar.java;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.cctflow.agent.SampleTopic;
import io.cctflow.schema.SampleBatch;
import io.cctflow.servers.TestServers;

/**
 * The import command of the shaded jar as it ships ({@code java -jar cctflow-collector-*.jar
 * import}), in a child JVM, against the real test broker.
 */
class ImportJarIT {

    @TempDir
    Path dir;

    @Test
    @Timeout(180)
    void sigtermInWatchModeExitsPromptlyAfterPrintingTheSummary() throws Exception {
        Path watched = Files.createDirectories(dir.resolve("watched"));
        Files.writeString(watched.resolve("stacks.collapsed"), "[main];a/B.c;a/B.d 3\n");
        String topic = topic("import-watch-");
        Path out = dir.resolve("watch.stdout");
        Path err = dir.resolve("watch.stderr");

        Process p = new ProcessBuilder(java(), "-jar", JAR.toString(), "import", "--watch",
                "--poll", "100ms", "--timeout", "60s",
                "--bootstrap-servers", TestServers.get().kafkaBootstrapServers(), "--topic", topic,
                watched.toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            await("the watcher imported the file (" + err + ")").atMost(Duration.ofSeconds(90))
                    .until(() -> read(err).contains(watched.resolve("stacks.collapsed")
                            + ": 3 samples in 1 batches, acknowledged"));
            assertThat(read(err)).contains("cctflow import: watching [" + watched + "]");

            p.destroy(); // SIGTERM: the shutdown hook path Ctrl-C takes too

            // the hook used to wait for the main thread, which never ends during shutdown, so
            // the JVM only exited after the whole --timeout (60 s)
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("exits within 20 s of SIGTERM, "
                    + "well before the 60 s timeout; stderr: %s", read(err)).isTrue();
            assertThat(read(out)).isEqualTo("cctflow import: 1 files imported, 0 failed; 3 samples"
                    + " in 1 acknowledged batches to topic " + topic + System.lineSeparator());
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    @Timeout(240)
    void aTruncatedRecordingIsReportedWithFileAndOffsetAndTheNextFileIsStillPublished()
            throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        Path good = TestRecordings.record(in.resolve("b-good.jfr"), 20);
        long goodSamples = TestRecordings.executionSamples(good).size();
        // cut inside the first chunk; its header, read here independently of the importer,
        // declares more bytes than the file then has
        long firstChunkSize = ByteBuffer.wrap(Files.readAllBytes(good), 8, 8).getLong();
        long cut = firstChunkSize / 2;
        // named to come first: the import must go on after it
        Path truncated = TestRecordings.truncate(good, in.resolve("a-truncated.jfr"), cut);
        String topic = topic("import-corrupt-");

        Process p = new ProcessBuilder(java(), "-jar", JAR.toString(), "import",
                "--bootstrap-servers", TestServers.get().kafkaBootstrapServers(), "--topic", topic,
                "--service", "corrupt-it", in.toString())
                .redirectOutput(dir.resolve("import.stdout").toFile())
                .redirectError(dir.resolve("import.stderr").toFile()).start();
        try {
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("import exits").isTrue();
        } finally {
            p.destroyForcibly();
        }
        String stdout = read(dir.resolve("import.stdout"));
        String stderr = read(dir.resolve("import.stderr"));

        assertThat(p.exitValue()).as(stderr).isEqualTo(1);
        assertThat(stderr.lines()).as(stderr).contains("cctflow import: ERROR file " + truncated
                + ": corrupt at byte offset 8: chunk 1: chunk declares " + firstChunkSize
                + " bytes but " + cut + " remain in the file (truncated file?)");
        assertThat(stderr).contains(good + ": " + goodSamples + " samples in ");
        assertThat(stdout).startsWith("cctflow import: 1 files imported, 1 failed; " + goodSamples
                + " samples in ");
        List<SampleBatch> batches = consume(topic, goodSamples);
        assertThat(batches).allSatisfy(b -> {
            assertThat(b.getInstance().getService()).isEqualTo("corrupt-it");
            assertThat(b.getInstance().getInstanceId()).isEqualTo("b-good");
        });
    }

    private static String topic(String prefix) {
        String topic = prefix + UUID.randomUUID();
        TestServers.get().createTopic(topic, 1);
        return topic;
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    /** Reads the topic until its batches hold {@code samples} samples (at most 90 s). */
    private static List<SampleBatch> consume(String topic, long samples) {
        List<SampleBatch> batches = SampleTopic.readUntil(topic, b -> SampleTopic.samples(b) >= samples,
                Duration.ofSeconds(90));
        assertThat(SampleTopic.samples(batches)).as("samples on %s", topic).isEqualTo(samples);
        return batches;
    }

}
