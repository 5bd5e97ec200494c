package io.cctflow.core.diff.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ThinningTest {

    @Test
    void drawsHaveTheBinomialMeanAndVariance() {
        // the exact draw (waiting times, p and 1 - p) and the normal one (n p (1 - p) above 10)
        long[] sizes = {1, 7, 60, 400, 100_000};
        double[] keeps = {0.01, 0.3, 0.5, 0.8, 0.999};
        Random random = new Random(11);
        int draws = 20_000;
        for (long n : sizes) {
            for (double p : keeps) {
                double sum = 0;
                double squares = 0;
                for (int d = 0; d < draws; d++) {
                    long x = Thinning.binomial(random, n, p);
                    assertThat(x).isBetween(0L, n);
                    sum += x;
                    squares += (double) x * x;
                }
                double mean = sum / draws;
                double variance = squares / draws - mean * mean;
                double expectedVariance = n * p * (1 - p);
                // within five standard errors: of the mean, and of the sample variance (from the
                // binomial's fourth central moment n p q (1 + 3 (n - 2) p q)); the normal draws'
                // variance also within 2 % plus that
                double fourth = expectedVariance * (1 + 3 * (n - 2) * p * (1 - p));
                double varianceError = Math.sqrt(Math.max(0, fourth - expectedVariance * expectedVariance) / draws);
                assertThat(mean).as("mean of Binomial(%d, %s)", n, p)
                        .isCloseTo(n * p, within(5 * Math.sqrt(expectedVariance / draws) + 1e-9));
                assertThat(variance).as("variance of Binomial(%d, %s)", n, p)
                        .isCloseTo(expectedVariance, within(5 * varianceError + 0.02 * expectedVariance + 1e-9));
            }
        }
    }

    @Test
    void theSameCountsThinTheSameWayAndKeepProbabilityOneKeepsThem() {
        long[] counts = {0, 3, 17, 250, 1, 9_000};
        assertThat(Thinning.thin(counts, 0.4)).containsExactly(Thinning.thin(counts.clone(), 0.4));
        assertThat(Thinning.thin(counts, 1)).containsExactly(counts);
        long[] thinned = Thinning.thin(counts, 0.4);
        for (int i = 0; i < counts.length; i++) {
            assertThat(thinned[i]).isBetween(0L, counts[i]);
        }
        assertThatThrownBy(() -> Thinning.thin(counts, 0)).hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> Thinning.thin(counts, 1.5)).hasMessageContaining("(0, 1]");
    }
}
