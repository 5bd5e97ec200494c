package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The job's command line on a cluster: {@code --config FILE}, {@code --key value}, the environment. */
class JobArgumentsTest {

    @Test
    void argumentsWinOverTheEnvironmentWhichWinsOverTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.properties");
        Files.writeString(file, "parallelism=3\nwindow=30s\ntopic.samples=from-file\n");
        Map<String, String> env = Map.of("CCTFLOW_TOPIC_SAMPLES", "from-env");

        SamplesJobConfig config = SamplesJobConfig.fromCommandLine(
                new String[] {"--parallelism", "1", "--config", file.toString(), "--window", "2m"}, env::get);

        assertThat(config.parallelism()).isEqualTo(1);
        assertThat(config.window().toMinutes()).isEqualTo(2);
        assertThat(config.samplesTopic()).isEqualTo("from-env");
    }

    @Test
    void unknownKeyInTheFileFailsNamingIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.properties");
        Files.writeString(file, "paralelism=3\n");

        assertThatThrownBy(() -> SamplesJobConfig.fromCommandLine(new String[] {"--config", file.toString()}, k -> null))
                .hasMessageContaining("paralelism");
    }

    @Test
    void missingFileAndDanglingKeyFailWithWhatWasGiven(@TempDir Path dir) {
        assertThatThrownBy(() -> SamplesJobConfig.fromCommandLine(
                new String[] {"--config", dir.resolve("nope.properties").toString()}, k -> null))
                .hasMessageContaining("nope.properties");
        assertThatThrownBy(() -> SamplesJobConfig.fromCommandLine(new String[] {"--window"}, k -> null))
                .hasMessageContaining("--window");
        assertThatThrownBy(() -> SamplesJobConfig.fromCommandLine(new String[] {"window", "1m"}, k -> null))
                .hasMessageContaining("'window'");
    }
}
