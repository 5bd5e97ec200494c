package io.cctflow.core.migration;

import static io.cctflow.core.migration.MigrationTrees.modified;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.cctflow.core.Cct;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * One migration run judged by every seed 001 Sect. 5 metric through {@link MigrationReport}, for
 * the three impact analyses. C is modified: it used to call D and now does the work itself; D is
 * also called, unchanged, from B.
 *
 * <pre>
 * old (8)                  partial (4)          reference = real new profile (8)
 * A0        0 / 8          A0       0 / 4       A0        0 / 8   share 1
 *   B1      2 / 4 (.5)       B1     1 / 2         B1      2 / 4   .5
 *     D3    2 / 2 (.25)        D3   1 / 1           D3    2 / 2   .25
 *   C2      2 / 4 (.5)       C2     2 / 2         C2      4 / 4   .5
 *     D1    2 / 2 (.25)
 * </pre>
 *
 * With tolerance .02, truly reusable are A0, B1, D3 and C2 (C2's inclusive share did not move);
 * D1 is not. The reference's samples: 4 through C2, 2 at D3, 2 at B1. Rate 4 samples/s: F = 2 s;
 * overhead .25 s.
 */
class MigrationReportTest {
    private static final double TOLERANCE = 0.02;
    private static final Duration OVERHEAD = Duration.ofMillis(250);

    private final Cct old = MigrationTrees.of("A0/B1", 2, "A0/B1/D3", 2, "A0/C2", 2, "A0/C2/D1", 2);
    private final Cct partial = MigrationTrees.of("A0/B1", 1, "A0/B1/D3", 1, "A0/C2", 2);
    private final Cct reference = MigrationTrees.of("A0/B1", 2, "A0/B1/D3", 2, "A0/C2", 4);

    @Test
    void agReusesTheContextUnderTheChangedCallerWrongly() {
        // U = {A0, B1, D3, D1}: TP 3, FP 1 (D1); Ū = {C2}: FN 1. P = R = F = 3/4.
        // migrated totals A0 10, B1 6 (.6), D3 3 (.3), C2 4 (.4, D1's old 2 kept under it): only A0
        // correct, Acc 1/4: D1 props up C2's share, but the thin partial profile skews B1 and D3.
        // needed: the 4 samples through C2: P = 1 s, TS = (2 - 1 - .25) / 2 = .375
        MigrationReport r = report(ImpactAnalysis.AG);
        assertQuality(r, 3, 1, 1, 0, 0.25);
        assertThat(r.quality().precision()).isCloseTo(0.75, within(1e-12));
        assertThat(r.quality().recall()).isCloseTo(0.75, within(1e-12));
        assertThat(r.quality().fMeasure()).isCloseTo(0.75, within(1e-12));
        assertThat(r.timeSaved()).isEqualTo(new TimeSaved(Duration.ofSeconds(2), Duration.ofSeconds(1), OVERHEAD));
        assertThat(r.timeSaved().ts()).isCloseTo(0.375, within(1e-12));
    }

    @Test
    void agCallerDropsTheContextUnderTheChangedCallerAndKeepsDUnderB() {
        // U = {A0, B1, D3}: TP 3, FP 0; Ū = {C2, D1}: FN 1 (C2), TN 1 (D1). P 1, R 3/4, F 6/7.
        // migrated totals A0 10, B1 6 (.6), D3 3 (.3), C2 2 (.2): only A0 correct, Acc 1/4.
        // needed: the 4 samples through C2, TS .375
        MigrationReport r = report(ImpactAnalysis.AG_CALLER);
        assertQuality(r, 3, 0, 1, 1, 0.25);
        assertThat(r.quality().precision()).isEqualTo(1.0);
        assertThat(r.quality().recall()).isCloseTo(0.75, within(1e-12));
        assertThat(r.quality().fMeasure()).isCloseTo(6.0 / 7, within(1e-12));
        assertThat(r.timeSaved().ts()).isCloseTo(0.375, within(1e-12));
    }

    @Test
    void baAlsoDropsDUnderTheUnchangedCaller() {
        // U = {A0, B1}: TP 2; Ū = {C2, D1, D3}: FN 2 (C2, D3), TN 1. P 1, R 1/2, F 2/3.
        // migrated totals A0 6, B1 4 (.67), D3 1 (.17), C2 2 (.33): Acc 1/4.
        // needed: 4 through C2 + 2 at D3 = 6: P = 1.5 s, TS = (2 - 1.5 - .25) / 2 = .125
        MigrationReport r = report(ImpactAnalysis.BA);
        assertQuality(r, 2, 0, 2, 1, 0.25);
        assertThat(r.quality().recall()).isCloseTo(0.5, within(1e-12));
        assertThat(r.quality().fMeasure()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(TimeSaved.neededSamples(r.migration(), reference)).isEqualTo(6);
        assertThat(r.timeSaved().ts()).isCloseTo(0.125, within(1e-12));
    }

    @Test
    void measuredReportHasTheSameQualityAndTheMeasuredTs() {
        Migration m = ProfileMigration.migrate(old, modified('C'), ImpactAnalysis.AG_CALLER, partial);
        MigrationReport r = MigrationReport.measured(m, reference, TOLERANCE, Duration.ofMinutes(10),
                Duration.ofMinutes(9), Duration.ofMinutes(2));
        assertThat(r.migration()).isSameAs(m);
        assertThat(r.quality()).isEqualTo(MigrationQuality.of(m, reference, TOLERANCE));
        assertThat(r.timeSaved().ts()).isCloseTo(-0.1, within(1e-12)); // overhead exceeds the savings
        assertThatThrownBy(() -> new MigrationReport(m, null, r.timeSaved()))
                .isInstanceOf(NullPointerException.class).hasMessage("quality");
        assertThatThrownBy(() -> MigrationReport.measured(m, reference, -1, Duration.ofMinutes(1), Duration.ZERO,
                Duration.ZERO)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tolerance");
    }

    private MigrationReport report(ImpactAnalysis mode) {
        Migration m = ProfileMigration.migrate(old, modified('C'), mode, partial);
        MigrationReport r = MigrationReport.estimated(m, reference, TOLERANCE, 4.0, OVERHEAD);
        assertThat(r.quality()).isEqualTo(MigrationQuality.of(m, reference, TOLERANCE));
        assertThat(r.timeSaved()).isEqualTo(TimeSaved.estimated(m, reference, 4.0, OVERHEAD));
        return r;
    }

    private static void assertQuality(MigrationReport r, int tp, int fp, int fn, int tn, double acc) {
        MigrationQuality q = r.quality();
        assertThat(new int[] {q.truePositives(), q.falsePositives(), q.falseNegatives(), q.trueNegatives()})
                .as("%s TP, FP, FN, TN", r.migration().mode()).containsExactly(tp, fp, fn, tn);
        assertThat(q.referenceEntries()).isEqualTo(4);
        assertThat(q.acc()).as("%s Acc", r.migration().mode()).isCloseTo(acc, within(1e-12));
    }
}
