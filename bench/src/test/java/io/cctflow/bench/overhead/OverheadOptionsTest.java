package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class OverheadOptionsTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        OverheadOptions o = OverheadOptions.parse();

        assertThat(o.rounds()).isEqualTo(3);
        assertThat(o.setups()).containsExactly(Setup.NONE, Setup.AGENT_20, Setup.AGENT_10, Setup.JFR_20);
        assertThat(o.slice()).isEqualTo(Duration.ofMillis(1500));
        assertThat(o.warmup()).isEqualTo(Duration.ofSeconds(20));
        assertThat(o.prewarm()).isZero();
        assertThat(OverheadOptions.parse("--prewarm", "0").prewarm()).isZero();
        assertThat(o.measure()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.threads()).isEqualTo(2);
        assertThat(o.flush()).isEqualTo(Duration.ofSeconds(5));
        assertThat(o.maxTime()).isEqualTo(Duration.ofMinutes(14));
        assertThat(o.heap()).isEqualTo("256m");
        assertThat(o.stackDepth()).isEqualTo(256);
        assertThat(o.seed()).isEqualTo(1);
        assertThat(o.quiet()).isEqualTo(0.05);
        assertThat(o.agentJar()).isEqualTo(Path.of("bench/target/cctflow-agent.jar"));
        assertThat(o.workDir()).isEqualTo(Path.of("bench/target/overhead"));
        assertThat(o.reportDir()).isEqualTo(Path.of("bench/reports"));
        assertThat(o.preload()).isTrue();
        assertThat(o.tenure()).isTrue();
        assertThat(o.attachPlacebo()).isFalse();
    }

    @Test
    void parsesEveryOption() {
        OverheadOptions o = OverheadOptions.parse("--rounds", "5", "--setups", "jfr20, none,jfrnoevents,jfridle",
                "--slice", "2s", "--warmup", "500ms", "--prewarm", "1m", "--preload", "no", "--tenure", "no", "--measure", "9s", "--threads", "4", "--flush", "1s",
                "--max-time", "2m", "--heap", "512m", "--stackdepth", "128", "--seed", "-7", "--quiet", "0.1", "--agent-jar", "a.jar",
                "--work-dir", "w", "--report-dir", "r");

        // setups in Setup order whatever order they were given in
        assertThat(o).isEqualTo(new OverheadOptions(5,
                List.of(Setup.NONE, Setup.JFR_20, Setup.JFR_IDLE, Setup.JFR_NO_EVENTS), Duration.ofSeconds(2),
                Duration.ofMillis(500), Duration.ofMinutes(1), false, false, false, Duration.ofSeconds(9), 4, Duration.ofSeconds(1), Duration.ofMinutes(2), "512m",
                128, -7, 0.1, Path.of("a.jar"), Path.of("w"), Path.of("r")));
    }

    @Test
    void cyclesCoverTheThawedTimeAskedFor() {
        OverheadOptions o = OverheadOptions.parse("--slice", "1500ms", "--warmup", "20s", "--measure", "45s");

        assertThat(o.warmupCycles()).isEqualTo(14); // 13 x 1.5 s = 19.5 s would fall short
        assertThat(o.measuredCycles()).isEqualTo(30);
        assertThat(OverheadOptions.parse("--slice", "2s", "--warmup", "1s").warmupCycles()).isEqualTo(1);
    }

    @Test
    void setupsMustIncludeTheBaselineAndNameKnownOnes() {
        assertThatThrownBy(() -> OverheadOptions.parse("--setups", "agent20,jfr20"))
                .hasMessageContaining("--setups").hasMessageContaining("none");
        assertThatThrownBy(() -> OverheadOptions.parse("--setups", "none"))
                .hasMessageContaining("--setups");
        assertThatThrownBy(() -> OverheadOptions.parse("--setups", "none,jfr20attached"))
                .hasMessageContaining("--setups").hasMessageContaining("jfr20attached needs jfr20");
        assertThat(OverheadOptions.parse("--setups", "jfr20attached,jfr20").setups())
                .containsExactly(Setup.JFR_20, Setup.JFR_20_ATTACHED);
        assertThat(OverheadOptions.parse("--setups", "noneattached,none").setups())
                .containsExactly(Setup.NONE, Setup.NONE_ATTACHED);
        assertThat(OverheadOptions.parse("--setups", "none,noneattached").attached()).contains(Setup.NONE_ATTACHED);
        assertThat(OverheadOptions.parse("--setups", "none,agent20").attached()).isEmpty();
        assertThatThrownBy(() -> OverheadOptions.parse("--setups", "jfr20,noneattached"))
                .hasMessageContaining("--setups").hasMessageContaining("noneattached needs none");
        assertThatThrownBy(() -> OverheadOptions.parse("--setups", "none,noneattached,jfr20,jfr20attached"))
                .hasMessageContaining("--setups").hasMessageContaining("at most one of jfr20attached and noneattached");
        assertThatThrownBy(() -> OverheadOptions.parse("--setups", "none,agent5"))
                .hasMessageContaining("--setups").hasMessageContaining("'agent5'")
                .hasMessageContaining("jfrnoevents");
    }

    @Test
    void badValuesNameTheOption() {
        assertThatThrownBy(() -> OverheadOptions.parse("--rounds", "0"))
                .hasMessageContaining("--rounds").hasMessageContaining("'0'");
        assertThat(OverheadOptions.parse("--setups", "jfr20,jfr20attached", "--attach", "placebo").attachPlacebo())
                .isTrue();
        assertThatThrownBy(() -> OverheadOptions.parse("--attach", "placebo"))
                .hasMessageContaining("--attach placebo needs --setups jfr20,jfr20attached");
        assertThat(OverheadOptions.parse("--setups", "none,noneattached", "--attach", "placebo").attachPlacebo())
                .isTrue();
        assertThatThrownBy(() -> OverheadOptions.parse("--setups", "jfr20,jfr20attached", "--attach", "none"))
                .hasMessageContaining("--attach").hasMessageContaining("ours or placebo").hasMessageContaining("'none'");
        assertThatThrownBy(() -> OverheadOptions.parse("--tenure", "always"))
                .hasMessageContaining("--tenure").hasMessageContaining("yes or no").hasMessageContaining("'always'");
        assertThatThrownBy(() -> OverheadOptions.parse("--preload", "true"))
                .hasMessageContaining("--preload").hasMessageContaining("yes or no").hasMessageContaining("'true'");
        assertThatThrownBy(() -> OverheadOptions.parse("--measure", "6 sec"))
                .hasMessageContaining("--measure").hasMessageContaining("6s");
        assertThatThrownBy(() -> OverheadOptions.parse("--warmup"))
                .hasMessageContaining("--warmup needs a value");
        assertThatThrownBy(() -> OverheadOptions.parse("--quiet", "5"))
                .hasMessageContaining("--quiet").hasMessageContaining("'5'");
        assertThatThrownBy(() -> OverheadOptions.parse("--seed", "x"))
                .hasMessageContaining("--seed").hasMessageContaining("'x'");
        assertThatThrownBy(() -> OverheadOptions.parse("--speed", "1"))
                .hasMessageContaining("unknown option --speed");
    }
}
