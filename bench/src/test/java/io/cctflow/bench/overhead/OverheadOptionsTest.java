package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

class OverheadOptionsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        OverheadOptions o = OverheadOptions.parse();

        assertThat(o.rounds()).isEqualTo(12);
        assertThat(o.warmup()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.measure()).isEqualTo(Duration.ofSeconds(6));
        assertThat(o.threads()).isEqualTo(2);
        assertThat(o.flush()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.maxTime()).isEqualTo(Duration.ofMinutes(10));
        assertThat(o.agentJar()).isEqualTo(Path.of("bench/target/cctflow-agent.jar"));
    }

    @Test
    void parsesEveryOption() {
        OverheadOptions o = OverheadOptions.parse("--rounds", "3", "--warmup", "500ms", "--measure", "2s",
                "--threads", "4", "--flush", "1s", "--max-time", "2m", "--heap", "512m", "--stackdepth", "128",
                "--agent-jar", "a.jar", "--work-dir", "w", "--report-dir", "r");

        assertThat(o).isEqualTo(new OverheadOptions(3, Duration.ofMillis(500), Duration.ofSeconds(2), 4,
                Duration.ofSeconds(1), Duration.ofMinutes(2), "512m", 128, Path.of("a.jar"), Path.of("w"),
                Path.of("r")));
    }

    @Test
    void badValuesNameTheOption() {
        assertThatThrownBy(() -> OverheadOptions.parse("--rounds", "0"))
                .hasMessageContaining("--rounds").hasMessageContaining("'0'");
        assertThatThrownBy(() -> OverheadOptions.parse("--measure", "6 sec"))
                .hasMessageContaining("--measure").hasMessageContaining("6s");
        assertThatThrownBy(() -> OverheadOptions.parse("--warmup"))
                .hasMessageContaining("--warmup needs a value");
        assertThatThrownBy(() -> OverheadOptions.parse("--speed", "1"))
                .hasMessageContaining("unknown option --speed");
    }
}
