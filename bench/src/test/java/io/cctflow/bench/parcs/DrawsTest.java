package io.cctflow.bench.parcs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DrawsTest {

    @Test
    void spreadEqualsABruteForceMedianMinAndMaxOnRandomValues() {
        Random random = new Random(7);
        for (int trial = 0; trial < 2_000; trial++) {
            int n = 1 + random.nextInt(9);
            double[] values = new double[n];
            for (int i = 0; i < n; i++) {
                // few distinct values, so ties are common
                values[i] = random.nextBoolean() ? random.nextInt(4) : random.nextDouble() * 100 - 50;
            }
            double[] before = values.clone();

            Draws.Spread spread = Draws.Spread.of(values);

            double expectedMedian = n % 2 == 1 ? kthSmallest(values, n / 2)
                    : (kthSmallest(values, n / 2 - 1) + kthSmallest(values, n / 2)) / 2;
            double min = values[0];
            double max = values[0];
            for (double v : values) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            // the median of two middle values is interpolated (a + (b - a) / 2): equal up to rounding
            assertThat(spread.median()).isCloseTo(expectedMedian, within(1e-12 * Math.max(1, Math.abs(expectedMedian))));
            assertThat(spread.min()).isEqualTo(min);
            assertThat(spread.max()).isEqualTo(max);
            assertThat(values).containsExactly(before);
        }
    }

    /** The value with at most k values below it and more than k at or below it. */
    private static double kthSmallest(double[] values, int k) {
        for (double x : values) {
            int below = 0;
            int atOrBelow = 0;
            for (double y : values) {
                below += y < x ? 1 : 0;
                atOrBelow += y <= x ? 1 : 0;
            }
            if (below <= k && k < atOrBelow) {
                return x;
            }
        }
        throw new AssertionError("no k-th value");
    }

    @Test
    void summarySpreadsEachFigureOfTheDraws() {
        List<Draws.Draw> draws = List.of(new Draws.Draw("a", 10, 0.8, 0.9, 0.85, 0.95, 40),
                new Draws.Draw("b", 30, 0.6, 0.7, 0.80, 0.90, 50), new Draws.Draw("c", 20, 0.7, 0.5, 0.90, 0.60, 20));

        Draws result = Draws.of(draws, draws.subList(0, 2));

        Draws.Summary s = result.releaseSummary();
        assertThat(s.commonTree()).isEqualTo(new Draws.Spread(20, 10, 30));
        assertThat(s.shareOfA()).isEqualTo(new Draws.Spread(0.7, 0.6, 0.8));
        assertThat(s.shareOfB()).isEqualTo(new Draws.Spread(0.7, 0.5, 0.9));
        assertThat(s.selfOverlap()).isEqualTo(new Draws.Spread(0.85, 0.80, 0.90));
        assertThat(s.totalOverlap()).isEqualTo(new Draws.Spread(0.90, 0.60, 0.95));
        assertThat(s.score()).isEqualTo(new Draws.Spread(40, 20, 50));
        assertThat(result.noiseSummary().score()).isEqualTo(new Draws.Spread(45, 40, 50));
        assertThatThrownBy(() -> Draws.Spread.of()).hasMessageContaining("no values");
    }
}
