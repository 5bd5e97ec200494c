package io.cctflow.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PipelineBenchOptionsTest {
    @Test
    void drainConfigurationsAreSettingsOverTheJobSettings() {
        PipelineBenchOptions o = PipelineBenchOptions.parse(new String[] {"--phases", "drain",
                "--drain-configs", "checkpoint.interval=5s, tree-cache.size=10;;parallelism=2"});
        assertThat(o.drain().configs()).containsExactly(
                Map.of("checkpoint.interval", "5s", "tree-cache.size", "10"), Map.of(), Map.of("parallelism", "2"));
        assertThat(PipelineBenchOptions.parse(new String[] {"--phases", "drain"}).drain().configs())
                .isEqualTo(List.of(Map.of()));
    }

    @Test
    void drainRunsAloneAndSettingsArePairs() {
        assertThatThrownBy(() -> PipelineBenchOptions.parse(new String[] {"--phases", "rate,drain"}))
                .hasMessageContaining("drain runs alone");
        assertThatThrownBy(() -> PipelineBenchOptions.parse(new String[] {"--phases", "drain", "--drain-configs", "x"}))
                .hasMessageContaining("'x' is not key=value");
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(DrainPhase.median(new double[] {3, 1, 2})).isEqualTo(2);
        assertThat(DrainPhase.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    }
}
