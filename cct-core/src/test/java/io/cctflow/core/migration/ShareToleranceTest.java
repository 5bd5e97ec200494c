package io.cctflow.core.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShareToleranceTest {

    @Test
    void anAbsoluteToleranceIsTheSameForEveryShareAndEveryLength() {
        ShareTolerance t = ShareTolerance.absolute(0.01);
        assertThat(t.accepts(0.0, 0.009, 100_000)).isTrue();
        assertThat(t.accepts(0.5, 0.509, 10)).isTrue();
        assertThat(t.accepts(0.5, 0.52, 100_000)).isFalse();
    }

    @Test
    void theSamplingToleranceIsWhatTwoRunsOfTheRealProfilesLengthDifferBy() {
        ShareTolerance t = ShareTolerance.sampling(2);
        // b = 0.5, n = 10,000: sd of the difference sqrt(2 * 0.25 / 10,000) = 0.00707, two of them 0.01414
        assertThat(t.accepts(0.514, 0.5, 10_000)).isTrue();
        assertThat(t.accepts(0.515, 0.5, 10_000)).isFalse();
        // the same difference is within the noise of a shorter profile
        assertThat(t.accepts(0.515, 0.5, 1_000)).isTrue();
        // a context missing from the generated profile: wrong unless the real one sampled it a few times
        assertThat(t.accepts(0.0, 100.0 / 10_000, 10_000)).isFalse();
        assertThat(t.accepts(0.0, 5.0 / 10_000, 10_000)).isTrue();
        assertThat(t.accepts(0.0, 0.0, 10_000)).isTrue();
        assertThat(t.accepts(0.1, 0.0, 0)).isFalse();
    }

    @Test
    void badTolerancesAreRefusedWithTheirValue() {
        assertThatThrownBy(() -> ShareTolerance.absolute(-0.1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tolerance must be >= 0 and finite: -0.1");
        assertThatThrownBy(() -> ShareTolerance.sampling(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("z must be >= 0 and finite: NaN");
        assertThatThrownBy(() -> new ShareTolerance(0, Double.POSITIVE_INFINITY)).hasMessageContaining("z must be");
    }
}
