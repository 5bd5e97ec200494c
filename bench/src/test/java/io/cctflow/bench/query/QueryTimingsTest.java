package io.cctflow.bench.query;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryTimingsTest {

    /**
     * Against the calls themselves: the series ending at the dataset's end make {@code 2 × (WARMUP
     * + repetitions)} calls, the k-th starting k windows after the range's start; each must read at
     * least one whole window.
     */
    @Test
    void mostRepetitionsAtEndIsTheLargestCountWhoseLastCallStillReadsAWindow() {
        for (Duration range : List.of(Duration.ofHours(3), Duration.ofDays(1), Duration.ofMinutes(50))) {
            for (Duration window : List.of(Duration.ofSeconds(30), Duration.ofMinutes(1), Duration.ofMinutes(5),
                    Duration.ofMinutes(7), Duration.ofMinutes(13), Duration.ofHours(1))) {
                long w = window.toMillis();
                int largest = 0;
                for (int n = 1; n <= 2_000; n++) {
                    int calls = 2 * (QueryTimings.WARMUP + n);
                    long lastFrom = -range.toMillis() + (long) (calls - 1) * w; // relative to the end
                    if (-lastFrom >= w) {
                        largest = n;
                    }
                }
                int most = QueryTimings.mostRepetitionsAtEnd(range, w);
                assertThat(Math.max(most, 0)).as("%s in %s", window, range).isEqualTo(largest);
            }
        }
        assertThat(QueryTimings.mostRepetitionsAtEnd(Duration.ofHours(3), Duration.ofMinutes(5).toMillis())).isEqualTo(15);
        assertThat(QueryTimings.mostRepetitionsAtEnd(Duration.ofHours(3), Duration.ofMinutes(1).toMillis())).isEqualTo(87);
    }
}
