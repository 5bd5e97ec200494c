package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SamplesJobConfigTest {
    private static final Path README = Path.of("README.md");

    /** Docs that match the code: the README's key table is exactly the one the key definitions render. */
    @Test
    void readmeListsEveryKeyWithItsDefault() throws Exception {
        String readme = Files.readString(README);
        String table = SamplesJobConfig.KEYS.markdownTable();
        for (var key : SamplesJobConfig.KEYS.keys()) {
            String defaultText = key.defaultText().isEmpty() ? "(empty)" : "`" + key.defaultText() + "`";
            assertThat(table).as("row of %s", key).contains("| `" + key.name() + "` | " + defaultText + " |");
        }
        assertThat(readme).as("the key table of %s; paste SamplesJobConfig.KEYS.markdownTable()", README).contains(table);
    }

    @Test
    void badValuesNameTheKey() {
        assertThatThrownBy(() -> SamplesJobConfig.from(Map.of(SamplesJobConfig.MATCH_THRESHOLD, "-1")))
                .hasMessage("truncated.match-threshold must be a whole number >= 0, got '-1'");
        assertThatThrownBy(() -> SamplesJobConfig.from(Map.of(SamplesJobConfig.MAX_PENDING_AGE, "soon")))
                .hasMessageStartingWith("truncated.max-age: ");
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
