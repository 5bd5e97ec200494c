package io.cctflow.core.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShareToleranceTest {

    @Test
    void anAbsoluteToleranceIsTheSameForEveryShare() {
        ShareTolerance t = ShareTolerance.absolute(0.01);
        assertThat(t.accepts(0.0, 0.009)).isTrue();
        assertThat(t.accepts(0.5, 0.509)).isTrue();
        assertThat(t.accepts(0.5, 0.52)).isFalse();
    }

    @Test
    void aRelativeToleranceScalesWithTheRealShare() {
        ShareTolerance t = ShareTolerance.relative(0.1);
        assertThat(t.accepts(0.0, 0.009)).isFalse();
        assertThat(t.accepts(0.0095, 0.01)).isTrue();
        assertThat(t.accepts(0.5, 0.52)).isTrue();
        assertThat(t.accepts(0.5, 0.6)).isFalse();
        assertThat(t.accepts(0.0, 0.0)).isTrue();
    }

    @Test
    void badTolerancesAreRefusedWithTheirValue() {
        assertThatThrownBy(() -> ShareTolerance.absolute(-0.1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tolerance must be >= 0 and finite: -0.1");
        assertThatThrownBy(() -> ShareTolerance.relative(Double.NaN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("relative tolerance must be >= 0 and finite: NaN");
        assertThatThrownBy(() -> new ShareTolerance(0, Double.POSITIVE_INFINITY))
                .hasMessageContaining("relative tolerance");
    }
}
