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
}
