package io.cctflow.agent.batch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class TruncationWarningTest {
    @Test
    void noWarningAtOrBelowOnePercent() {
        assertThat(TruncationWarning.of(100, 0, 64)).isEmpty();
        assertThat(TruncationWarning.of(100, 1, 64)).isEmpty();
        assertThat(TruncationWarning.of(1_000, 10, 64)).isEmpty();
        assertThat(TruncationWarning.of(0, 0, 64)).isEmpty();
    }

    @Test
    void warningAboveOnePercentNamesTheShareAndTheExactFlag() {
        assertThat(TruncationWarning.of(1_000, 11, 256)).isEqualTo("11 of 1000 samples (1.1 %) in this"
                + " batch were truncated at JFR's stack depth of 256 frames; restart the JVM with"
                + " -XX:FlightRecorderOptions:stackdepth=512 (and the agent key stackdepth=512)");
    }

    @Test
    void suggestedDepthDoublesAndIsCappedAtJfrsMaximum() {
        assertThat(TruncationWarning.of(10, 10, 64)).contains("stackdepth=128");
        assertThat(TruncationWarning.of(10, 10, 1_500)).contains("stackdepth=2048 ");
        assertThat(TruncationWarning.of(10, 10, 0)).as("unknown depth: JFR's default 64")
                .contains("depth of 64 frames", "stackdepth=128");
    }

    @Test
    void atTheMaximumDepthItSaysNoFlagHelps() {
        assertThat(TruncationWarning.of(10, 5, 2_048)).contains("maximum stack depth of 2048",
                "cannot be recorded in full").doesNotContain("-XX:");
    }

    @Property
    void warnsExactlyWhenMoreThanOnePercentAreTruncated(@ForAll @LongRange(min = 1, max = 1_000_000) long samples,
            @ForAll @LongRange(min = 0, max = 1_000_000) long truncatedRaw,
            @ForAll @IntRange(min = 1, max = 2_047) int depth) {
        long truncated = truncatedRaw % (samples + 1);
        boolean expected = truncated * 100 > samples;
        String warning = TruncationWarning.of(samples, truncated, depth);

        assertThat(!warning.isEmpty()).as("%d of %d", truncated, samples).isEqualTo(expected);
        if (expected) {
            int suggested = Math.min(2_048, 2 * depth);
            assertThat(warning).contains("-XX:FlightRecorderOptions:stackdepth=" + suggested + " ");
            assertThat(suggested).isGreaterThan(depth);
        }
    }
}
