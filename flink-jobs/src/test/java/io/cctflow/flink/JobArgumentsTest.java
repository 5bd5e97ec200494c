package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobArgumentsTest {

    @Test
    void laterValuesWinOverTheFileAndTheFileOverEarlierPairs(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.properties");
        Files.writeString(file, "parallelism=3\nwindow=30s\n");

        var values = JobArguments.parse("--parallelism", "1", "--config", file.toString(), "--window", "2m");

        assertThat(values).containsEntry("parallelism", "3").containsEntry("window", "2m");
        SamplesJobConfig config = SamplesJobConfig.from(values);
        assertThat(config.parallelism()).isEqualTo(3);
        assertThat(config.window().toMinutes()).isEqualTo(2);
    }

    @Test
    void unknownKeyInTheFileFailsNamingIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job.properties");
        Files.writeString(file, "paralelism=3\n");

        assertThatThrownBy(() -> SamplesJobConfig.from(JobArguments.parse("--config", file.toString())))
                .hasMessageContaining("paralelism");
    }

    @Test
    void missingFileAndDanglingKeyFailWithWhatWasGiven(@TempDir Path dir) {
        assertThatThrownBy(() -> JobArguments.parse("--config", dir.resolve("nope.properties").toString()))
                .hasMessageContaining("nope.properties");
        assertThatThrownBy(() -> JobArguments.parse("--window")).hasMessageContaining("--window needs a value");
        assertThatThrownBy(() -> JobArguments.parse("window", "1m")).hasMessageContaining("'window'");
    }
}
