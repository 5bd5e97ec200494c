package io.cctflow.agent.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.cctflow.servers.TestServers;

/**
 * The import command of the shaded jar as it ships ({@code java -jar cctflow-collector-*.jar
 * import}), in a child JVM, against the real test broker.
 */
class ImportJarIT {
    private static final Path JAR = Paths.get(System.getProperty("cctflow.agentJar",
            "target/cctflow-collector-0.1.0-SNAPSHOT.jar")).toAbsolutePath();

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

    private static String topic(String prefix) {
        String topic = prefix + UUID.randomUUID();
        TestServers.get().createTopic(topic, 1);
        return topic;
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private static String java() {
        return Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    }
}
