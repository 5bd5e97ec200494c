package io.cctflow.core.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.cctflow.core.baseline.BaselineComparison.Change;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class BaselineComparisonTest {

    /** Table 3.2 of seed 002: baseline method time always 0.1. */
    @ParameterizedTest(name = "Table 3.2: current {0} -> angle {1}, rgb ({2}, {3}, {4})")
    @CsvSource({
        "0.05,   90,   0, 255,   0",
        "0.067,  44,   0, 125, 130",
        "0.083,  18,   0,  51, 204",
        "0.1,     0,   0,   0, 255",
        "0.133, -29,  82,   0, 173",
        "0.167, -60, 170,   0,  85",
        "0.2,   -90, 255,   0,   0",
    })
    void matchesEveryRowOfTable32(double current, int angle, int red, int green, int blue) {
        BaselineComparison c = BaselineComparison.of(current, 0.1);
        assertThat(c.degrees()).isEqualTo(angle);
        assertThat(c.red()).isEqualTo(red);
        assertThat(c.green()).isEqualTo(green);
        assertThat(c.blue()).isEqualTo(blue);
        assertThat(c.change())
                .isEqualTo(angle > 0 ? Change.IMPROVEMENT : angle < 0 ? Change.REGRESSION : Change.UNCHANGED);
    }

    /** Listing 3.6 as printed (branch on d >= 0) contradicts the table on the improvement side. */
    @ParameterizedTest(name = "listing as printed: current {0} gives {1} deg, table says {2}")
    @CsvSource({"0.05, 45, 90", "0.067, 29, 44", "0.083, 15, 18"})
    void listingAsPrintedDisagreesWithTable32(double current, int printedListing, int table) {
        assertThat((int) listingAsPrinted(current, 0.1)).isEqualTo(printedListing).isNotEqualTo(table);
        assertThat(BaselineComparison.of(current, 0.1).degrees()).isEqualTo(table);
    }

    @Test
    void regressionSideIsTheSameInListingAndFix() {
        for (double current = 0.1; current <= 0.3; current += 0.005) {
            assertThat(BaselineComparison.angle(current, 0.1)).isCloseTo(listingAsPrinted(current, 0.1), within(1e-9));
        }
    }

    @Test
    void zeroBaselineAndZeroCurrentIsNoChange() {
        BaselineComparison c = BaselineComparison.of(0, 0);
        assertThat(c.angle()).isZero();
        assertThat(c.change()).isEqualTo(Change.UNCHANGED);
        assertThat(c.rgb()).isEqualTo(0x0000FF);
    }

    @Test
    void zeroBaselineIsARegressionOf45Degrees() {
        BaselineComparison c = BaselineComparison.of(0.3, 0);
        assertThat(c.angle()).isEqualTo(-45);
        assertThat(c.degrees()).isEqualTo(-45);
        assertThat(c.change()).isEqualTo(Change.REGRESSION);
        assertThat(c.red()).isEqualTo(128); // 127.5 rounded
        assertThat(c.green()).isZero();
        assertThat(c.blue()).isEqualTo(127);
    }

    @Test
    void zeroCurrentIsAnImprovementOf45Degrees() {
        BaselineComparison c = BaselineComparison.of(0, 0.3);
        assertThat(c.angle()).isEqualTo(45);
        assertThat(c.change()).isEqualTo(Change.IMPROVEMENT);
        assertThat(c.green()).isEqualTo(128);
        assertThat(c.red()).isZero();
        assertThat(c.blue()).isEqualTo(127);
    }

    @ParameterizedTest
    @ValueSource(doubles = {1e-9, 0.1, 1, 42, 1e12})
    void equalValuesAreUnchangedAndBlue(double time) {
        BaselineComparison c = BaselineComparison.of(time, time);
        assertThat(c.angle()).isZero();
        assertThat(c.change()).isEqualTo(Change.UNCHANGED);
        assertThat(c.rgb()).isEqualTo(0x0000FF);
    }

    @Test
    void clampsBeyondHalvingAndDoubling() {
        assertThat(BaselineComparison.of(0.001, 1).angle()).isEqualTo(90);
        assertThat(BaselineComparison.of(1000, 1).angle()).isEqualTo(-90);
    }

    @Test
    void halvingAndDoublingAreSymmetric() {
        for (double r = 1; r <= 2; r += 0.01) {
            assertThat(BaselineComparison.angle(1, r)).isCloseTo(-BaselineComparison.angle(r, 1), within(1e-9));
        }
    }

    @Test
    void angleIsMonotoneInCurrentTime() {
        double previous = Double.POSITIVE_INFINITY;
        for (double current = 0.01; current < 0.5; current += 0.001) {
            double a = BaselineComparison.angle(current, 0.1);
            assertThat(a).isLessThanOrEqualTo(previous).isBetween(-90.0, 90.0);
            previous = a;
        }
    }

    @Test
    void channelsAlwaysSumTo255() {
        for (double current = 0; current < 0.5; current += 0.001) {
            BaselineComparison c = BaselineComparison.of(current, 0.1);
            assertThat(c.red() + c.green() + c.blue()).isEqualTo(255);
            assertThat(c.red() == 0 || c.green() == 0).isTrue();
        }
    }

    @Test
    void rejectsNegativeNaNAndInfiniteTimes() {
        assertThatThrownBy(() -> BaselineComparison.of(-1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BaselineComparison.of(1, -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BaselineComparison.of(Double.NaN, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BaselineComparison.of(1, Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Listing 3.6 literally, including its {@code dMethodTime >= 0} branch. */
    private static double listingAsPrinted(double current, double baseline) {
        double d = current / baseline;
        d = Math.max(0.5, Math.min(2, d));
        if (d >= 0) {
            d = -1 * (d - 1);
        } else {
            d = (1 / d) - 1;
        }
        return 90 * d;
    }
}
