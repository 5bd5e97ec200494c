package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SamplesJobConfigTest {

    /** Docs that match the code: every key, with its default, is a row of the README's table. */
    @Test
    void readmeListsEveryKeyWithItsDefault() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        SamplesJobConfig.KEYS.forEach((key, spec) -> {
            String defaultText = spec[0].isEmpty() ? "(empty)" : "`" + spec[0] + "`";
            assertThat(readme).as("README row of %s", key).contains("| `" + key + "` | " + defaultText + " |");
        });
    }

    @Test
    void badValuesNameTheKey() {
        assertThatThrownBy(() -> SamplesJobConfig.from(Map.of(SamplesJobConfig.MATCH_THRESHOLD, "-1")))
                .hasMessage("truncated.match-threshold must be a whole number >= 0, got '-1'");
        assertThatThrownBy(() -> SamplesJobConfig.from(Map.of(SamplesJobConfig.ALLOWED_LATENESS, "soon")))
                .hasMessageStartingWith("allowed-lateness: ");
        assertThatThrownBy(() -> SamplesJobConfig.from(Map.of("windw", "1m")))
                .hasMessageContaining("unknown job configuration key(s) [windw]");
        assertThatThrownBy(() -> SamplesJobConfig.from(Map.of(SamplesJobConfig.WINDOW, "61m")))
                .hasMessageStartingWith("window must be at most 60 minutes").hasMessageEndingWith("got '61m'");
        assertThat(SamplesJobConfig.from(Map.of(SamplesJobConfig.WINDOW, "1h")).window()).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void roundTripsThroughItsMap() {
        SamplesJobConfig config = SamplesJobConfig.defaults().with(Map.of(SamplesJobConfig.MAX_PENDING_AGE, "90s"));
        assertThat(config.maxPendingAge()).isEqualTo(Duration.ofSeconds(90));
        assertThat(SamplesJobConfig.from(config.asMap())).isEqualTo(config);
    }
}
