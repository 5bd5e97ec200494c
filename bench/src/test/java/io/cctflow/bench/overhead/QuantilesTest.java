package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class QuantilesTest {

    @Test
    void medianAndRangeMatchSortingOnRandomSamples() {
        Random random = new Random(42);
        for (int trial = 0; trial < 500; trial++) {
            int n = 1 + random.nextInt(30);
            List<Double> values = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                values.add(random.nextGaussian() * 100);
            }
            Quantiles q = Quantiles.of(values);

            List<Double> sorted = new ArrayList<>(values);
            Collections.sort(sorted);
            double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
            assertThat(q.n()).isEqualTo(n);
            assertThat(q.median()).as("median of %s", values)
                    .isCloseTo(median, within(1e-9));
            assertThat(q.min()).isEqualTo(sorted.get(0));
            assertThat(q.max()).isEqualTo(sorted.get(n - 1));
            assertThat(q.q1()).isBetween(q.min(), q.median());
            assertThat(q.q3()).isBetween(q.median(), q.max());
        }
    }

    @Test
    void meanIntervalCoversTheTrueMeanOfNormalSamples95TimesInAHundred() {
        // a z interval (1.96 instead of t) covers only ~88 % at n = 5 and ~92 % at n = 8
        Random random = new Random(7);
        for (int n : new int[] {3, 5, 8, 20, 45}) {
            int trials = 20_000;
            int covered = 0;
            for (int trial = 0; trial < trials; trial++) {
                List<Double> values = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    values.add(1.0 + 0.004 * random.nextGaussian());
                }
                double[] ci = Quantiles.meanInterval95(values);
                if (ci[0] <= 1.0 && 1.0 <= ci[1]) {
                    covered++;
                }
            }
            assertThat((double) covered / trials).as("coverage at n = %d", n).isBetween(0.94, 0.96);
        }
    }

    @Test
    void meanIntervalIsTheTextbookOne() {
        // mean 3, s = sqrt(2.5), t(0.975, 4) = 2.776
        assertThat(Quantiles.mean(List.of(1.0, 2.0, 3.0, 4.0, 5.0))).isEqualTo(3.0);
        assertThat(Quantiles.standardDeviation(List.of(1.0, 2.0, 3.0, 4.0, 5.0))).isCloseTo(Math.sqrt(2.5), within(1e-12));
        double[] ci = Quantiles.meanInterval95(List.of(1.0, 2.0, 3.0, 4.0, 5.0));
        double half = 2.776 * Math.sqrt(2.5) / Math.sqrt(5);
        assertThat(ci[0]).isCloseTo(3 - half, within(1e-12));
        assertThat(ci[1]).isCloseTo(3 + half, within(1e-12));
        // past the table the approximation continues it: decreasing, above the normal quantile
        assertThat(Quantiles.t975(31)).isLessThan(Quantiles.t975(30)).isCloseTo(2.0395, within(0.001));
        assertThat(Quantiles.t975(120)).isCloseTo(1.9799, within(0.001)).isGreaterThan(1.959964);
        assertThatThrownBy(() -> Quantiles.meanInterval95(List.of(1.0))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 2");
    }

    @Test
    void quartilesInterpolateBetweenOrderStatistics() {
        Quantiles q = Quantiles.of(List.of(4.0, 1.0, 3.0, 2.0, 5.0));

        assertThat(q.q1()).isEqualTo(2.0);
        assertThat(q.median()).isEqualTo(3.0);
        assertThat(q.q3()).isEqualTo(4.0);
        assertThat(Quantiles.at(new double[] {0, 10}, 0.25)).isEqualTo(2.5);
    }

    @Test
    void refusesAnEmptySample() {
        assertThatThrownBy(() -> Quantiles.of(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void medianIntervalRankIsTheTextbookOneForTwentyValues() {
        // P(6 <= B <= 14) = 0.9586 for B ~ Binomial(20, 1/2); P(7 <= B <= 13) = 0.8847
        assertThat(Quantiles.medianIntervalRank(20, 0.95)).isEqualTo(6);
        assertThat(Quantiles.medianIntervalRank(20, 0.80)).isEqualTo(7);
    }

    @Test
    void medianIntervalRankIsTheLargestWithEnoughCoverageByExactBinomials() {
        for (int n = 1; n <= 80; n++) {
            for (double level : new double[] {0.5, 0.9, 0.95, 0.99}) {
                int expected = 1;
                for (int l = 1; 2 * l <= n; l++) {
                    if (coverage(n, l) >= level) {
                        expected = l;
                    }
                }
                assertThat(Quantiles.medianIntervalRank(n, level)).as("n=%d level=%s", n, level).isEqualTo(expected);
            }
        }
    }

    /** P(l <= B <= n - l), B ~ Binomial(n, 1/2), exactly. */
    private static double coverage(int n, int l) {
        java.math.BigInteger inside = java.math.BigInteger.ZERO;
        for (int k = l; k <= n - l; k++) {
            inside = inside.add(choose(n, k));
        }
        return new java.math.BigDecimal(inside).divide(new java.math.BigDecimal(java.math.BigInteger.TWO.pow(n)),
                java.math.MathContext.DECIMAL64).doubleValue();
    }

    private static java.math.BigInteger choose(int n, int k) {
        java.math.BigInteger c = java.math.BigInteger.ONE;
        for (int i = 1; i <= k; i++) {
            c = c.multiply(java.math.BigInteger.valueOf(n - k + i)).divide(java.math.BigInteger.valueOf(i));
        }
        return c;
    }

    @Test
    void medianIntervalTakesTheOrderStatisticsOfThatRank() {
        List<Double> values = new ArrayList<>();
        for (int i = 20; i >= 1; i--) {
            values.add((double) i);
        }
        Collections.shuffle(values, new Random(3));

        assertThat(Quantiles.medianInterval(values, 0.95)).containsExactly(6.0, 15.0);
        assertThat(Quantiles.medianInterval(List.of(1.0, 2.0, 3.0), 0.95)).containsExactly(1.0, 3.0);
        assertThatThrownBy(() -> Quantiles.medianInterval(List.of(), 0.95)).hasMessageContaining("no values");
        assertThatThrownBy(() -> Quantiles.medianInterval(values, 1.0)).hasMessageContaining("level");
    }
}
