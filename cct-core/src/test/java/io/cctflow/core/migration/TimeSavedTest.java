package io.cctflow.core.migration;

import static io.cctflow.core.migration.MigrationTrees.modified;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * TS by hand. The trees are those of {@link ProfileMigrationTest}: old A0/B1 4, A0/C2 2,
 * A0/C2/D1 4; partial A0/B1 1, A0/C2 3; reference (real new profile, 10 samples) A0/B1 4, A0/C2 6.
 */
class TimeSavedTest {
    private final Cct old = MigrationTrees.of("A0/B1", 4, "A0/C2", 2, "A0/C2/D1", 4);
    private final Cct partial = MigrationTrees.of("A0/B1", 1, "A0/C2", 3);
    private final Cct reference = MigrationTrees.of("A0/B1", 4, "A0/C2", 6);

    @Test
    void measuredTsIsTheReductionWithOverheadOverTheFullProfilingTime() {
        // F 100 s, P 30 s, O 5 s: saved 65 s, TS .65
        TimeSaved ts = TimeSaved.measured(Duration.ofSeconds(100), Duration.ofSeconds(30), Duration.ofSeconds(5));
        assertThat(ts.saved()).isEqualTo(Duration.ofSeconds(65));
        assertThat(ts.ts()).isCloseTo(0.65, within(1e-12));
    }

    @Test
    void tsIsNegativeWhenOverheadExceedsTheSavings() {
        // F 10 s, P 9 s (1 s saved), O 3 s: saved -2 s, TS -.2
        TimeSaved ts = TimeSaved.measured(Duration.ofSeconds(10), Duration.ofSeconds(9), Duration.ofSeconds(3));
        assertThat(ts.saved()).isEqualTo(Duration.ofSeconds(-2));
        assertThat(ts.ts()).isCloseTo(-0.2, within(1e-12));
    }

    @Test
    void tinyNegativeSavingsKeepTheirPrecision() {
        // saved = -1 ns of F = 11 ns: TS = -1/11 exactly as a double ratio, no cancellation
        TimeSaved ts = TimeSaved.measured(Duration.ofNanos(11), Duration.ofNanos(11), Duration.ofNanos(1));
        assertThat(ts.saved()).isEqualTo(Duration.ofNanos(-1));
        assertThat(ts.ts()).isCloseTo(-1.0 / 11, within(1e-15));
    }

    @Test
    void tsIsOneOnlyWhenNothingIsProfiledAndMigrationIsFree() {
        assertThat(TimeSaved.measured(Duration.ofMillis(7), Duration.ZERO, Duration.ZERO).ts()).isEqualTo(1.0);
        assertThat(TimeSaved.measured(Duration.ofMillis(7), Duration.ZERO, Duration.ofNanos(1)).ts()).isLessThan(1.0);
    }

    @Test
    void runsAddUpToTheRatioOfTotalsNotTheMeanOfRatios() {
        // run 1: F 100, P 30, O 5 -> 65 saved (.65); run 2: F 50, P 50, O 1 -> -1 saved (-.02).
        // TS of all runs = 64 / 150, not (.65 - .02) / 2
        TimeSaved all = TimeSaved.measured(Duration.ofSeconds(100), Duration.ofSeconds(30), Duration.ofSeconds(5))
                .plus(TimeSaved.measured(Duration.ofSeconds(50), Duration.ofSeconds(50), Duration.ofSeconds(1)));
        assertThat(all).isEqualTo(new TimeSaved(Duration.ofSeconds(150), Duration.ofSeconds(80), Duration.ofSeconds(6)));
        assertThat(all.ts()).isCloseTo(64.0 / 150, within(1e-12));
    }

    @Test
    void estimateCountsSamplesThatPassThroughAnAffectedContext() {
        // AG on C: reusable A0, B1, D1; affected C2. Reference samples: B1 4 (path A0, B1: all
        // reusable, not needed), C2 6 (needed). At 2 samples/s: F = 10/2 = 5 s, P = 6/2 = 3 s;
        // O = .5 s: TS = (5 - 3 - .5) / 5 = .3
        Migration m = ProfileMigration.migrate(old, modified('C'), ImpactAnalysis.AG, partial);
        assertThat(TimeSaved.neededSamples(m, reference)).isEqualTo(6);
        TimeSaved ts = TimeSaved.estimated(m, reference, 2.0, Duration.ofMillis(500));
        assertThat(ts).isEqualTo(new TimeSaved(Duration.ofSeconds(5), Duration.ofSeconds(3), Duration.ofMillis(500)));
        assertThat(ts.ts()).isCloseTo(0.3, within(1e-12));
    }

    @Test
    void estimateNeedsEverySampleWhenTheRootContextIsAffectedEvenUnderAg() {
        // AG on A: only A0 is affected, B1 and C2 stay reusable, but every sample's path passes
        // through A0, so all 10 are needed: P = F, TS = -O/F = -.5/5 = -.1
        Migration m = ProfileMigration.migrate(old, modified('A'), ImpactAnalysis.AG, partial);
        assertThat(m.reusableCount()).isEqualTo(3);
        assertThat(TimeSaved.neededSamples(m, reference)).isEqualTo(10);
        assertThat(TimeSaved.estimated(m, reference, 2.0, Duration.ofMillis(500)).ts()).isCloseTo(-0.1, within(1e-12));
    }

    @Test
    void estimateNeedsContextsTheOldProfileNeverSaw() {
        // no code change, but the new version runs a context the old profile lacks (A0/E7, 5
        // samples): only those are needed. 15 samples at 3/s: F 5 s, P 5/3 s, O 0: TS = 2/3
        Cct withNewContext = MigrationTrees.of("A0/B1", 4, "A0/C2", 6, "A0/E7", 5);
        Migration m = ProfileMigration.migrate(old, ChangeList.NONE, ImpactAnalysis.BA, partial);
        assertThat(TimeSaved.neededSamples(m, withNewContext)).isEqualTo(5);
        assertThat(TimeSaved.estimated(m, withNewContext, 3.0, Duration.ZERO).ts()).isCloseTo(2.0 / 3, within(1e-9));
    }

    @Test
    void rejectsArgumentsThatMakeTsMeaningless() {
        Duration s = Duration.ofSeconds(1);
        assertThatThrownBy(() -> TimeSaved.measured(Duration.ZERO, s, s))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("profiling time without migration must be > 0").hasMessageContaining("PT0S");
        assertThatThrownBy(() -> TimeSaved.measured(s.negated(), s, s))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PT-1S");
        assertThatThrownBy(() -> TimeSaved.measured(s, s.negated(), s))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("profiling time spent with migration must be >= 0");
        assertThatThrownBy(() -> TimeSaved.measured(s, s, s.negated()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("migration overhead must be >= 0");
        assertThatThrownBy(() -> TimeSaved.measured(null, s, s))
                .isInstanceOf(NullPointerException.class).hasMessage("withoutMigration");

        Migration m = ProfileMigration.migrate(old, modified('C'), ImpactAnalysis.AG, partial);
        for (double rate : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> TimeSaved.estimated(m, reference, rate, s))
                    .as("rate %s", rate)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("samplesPerSecond must be finite and > 0");
        }
        assertThatThrownBy(() -> TimeSaved.estimated(m, new Cct(), 1.0, s))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reference profile has no samples");
        assertThatThrownBy(() -> TimeSaved.estimated(m, reference, 1.0, s.negated()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("migration overhead must be >= 0");
        assertThatThrownBy(() -> TimeSaved.estimated(m, reference, Double.MIN_VALUE, s))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than a Duration");
    }
}
