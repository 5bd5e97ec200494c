package io.cctflow.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Where the demo's comparison starts: the first whole minute after the canary's warm-up. */
class DemoDeploymentsTest {
    @Test
    void startsAtTheFirstMinuteThatBeginsAfterTheWarmUp() {
        assertThat(DemoDeployments.comparedFrom(Instant.parse("2026-11-29T00:10:10Z")))
                .isEqualTo(Instant.parse("2026-11-29T00:11:00Z"));
        assertThat(DemoDeployments.comparedFrom(Instant.parse("2026-11-29T00:10:45Z")))
                .isEqualTo(Instant.parse("2026-11-29T00:12:00Z"));
        assertThat(DemoDeployments.comparedFrom(Instant.parse("2026-11-29T00:10:30Z")))
                .isEqualTo(Instant.parse("2026-11-29T00:11:00Z"));
    }

    /** Brute force: the smallest whole minute not before start + warm-up, found by stepping a second at a time. */
    @Test
    void isTheEarliestWholeMinuteAtLeastTheWarmUpAfterTheStart() {
        long base = Instant.parse("2026-11-29T00:00:00Z").toEpochMilli();
        for (long millis = base; millis < base + 180_000; millis += 250) {
            for (long offset : new long[] {0, 1, 999}) {
                Instant start = Instant.ofEpochMilli(millis + offset);
                Instant expected = Instant.ofEpochSecond((millis + offset + 999) / 1000).plus(DemoDeployments.WARM_UP);
                while (expected.getEpochSecond() % 60 != 0) {
                    expected = expected.plusSeconds(1);
                }
                Instant from = DemoDeployments.comparedFrom(start);
                assertThat(from).as("canary started %s", start).isEqualTo(expected);
                assertThat(Duration.between(start, from)).isBetween(DemoDeployments.WARM_UP,
                        DemoDeployments.WARM_UP.plusSeconds(60));
            }
        }
    }
}
