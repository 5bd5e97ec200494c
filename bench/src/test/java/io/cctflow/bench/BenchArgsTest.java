package io.cctflow.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

class BenchArgsTest {
    private static final Map<String, String> DEFAULTS = Map.of("runs", "3", "skip", "0", "measure", "30s");

    @Test
    void givenValuesReplaceTheDefaultsWithOrWithoutDashes() {
        Map<String, String> v = BenchArgs.overlay(DEFAULTS, new String[] {"--runs", "5", "measure", "2m"});

        assertThat(BenchArgs.positive(v, "runs")).isEqualTo(5);
        assertThat(BenchArgs.nonNegative(v, "skip")).isZero();
        assertThat(BenchArgs.duration(v, "measure")).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void badOptionsAreNamedWithWhatToWrite() {
        assertThatThrownBy(() -> BenchArgs.overlay(DEFAULTS, new String[] {"--rounds", "5"}))
                .hasMessage("unknown option '--rounds' (--help lists them)");
        assertThatThrownBy(() -> BenchArgs.overlay(DEFAULTS, new String[] {"--runs"}))
                .hasMessage("options come in pairs --option value; '--runs' has no value (--help lists them)");
        Map<String, String> v = BenchArgs.overlay(DEFAULTS,
                new String[] {"--runs", "0", "--skip", "-1", "--measure", "soon"});
        assertThatThrownBy(() -> BenchArgs.positive(v, "runs"))
                .hasMessage("--runs must be a positive integer, was '0'");
        assertThatThrownBy(() -> BenchArgs.nonNegative(v, "skip"))
                .hasMessage("--skip must be 0 or a positive integer, was '-1'");
        assertThatThrownBy(() -> BenchArgs.duration(v, "measure"))
                .hasMessage("--measure: not a duration: 'soon' (write e.g. 500ms, 30s, 1m, 2h, 7d or PT1M)");
    }
}
