package io.cctflow.core.migration;

import static io.cctflow.core.migration.MigrationTrees.modified;
import static io.cctflow.core.migration.MigrationTrees.node;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import org.junit.jupiter.api.Test;

/**
 * One hand-worked migration. Method C is modified between the versions: it used to delegate to D
 * and now does the work itself.
 *
 * <pre>
 * old (total 10)          new partial (total 4)    reference = real new profile (total 10)
 * A0          self 0 / 10  A0       self 0 / 4      A0       self 0 / 10   share 1.0
 *   B1        self 4 /  4    B1     self 1 / 1        B1     self 4 /  4   share 0.4
 *   C2        self 2 /  6    C2     self 3 / 3        C2     self 6 /  6   share 0.6
 *     D1      self 4 /  4
 * </pre>
 *
 * Call edges: A→B, A→C, C→D. AG affects C only; BA affects C and what C reaches, D.
 */
class ProfileMigrationTest {
    private static final double TOLERANCE = 0.05;

    private final Cct old = MigrationTrees.of("A0/B1", 4, "A0/C2", 2, "A0/C2/D1", 4);
    private final Cct partial = MigrationTrees.of("A0/B1", 1, "A0/C2", 3);
    private final Cct reference = MigrationTrees.of("A0/B1", 4, "A0/C2", 6);

    @Test
    void agMarksOnlyNodesOfChangedMethods() {
        boolean[] affected = ImpactAnalysis.AG.affected(old, modified('C'));
        assertThat(affected[node(old, "A0")]).isFalse();
        assertThat(affected[node(old, "A0/B1")]).isFalse();
        assertThat(affected[node(old, "A0/C2")]).isTrue();
        assertThat(affected[node(old, "A0/C2/D1")]).isFalse();
        assertThat(affected[Cct.ROOT]).isFalse();
    }

    @Test
    void baAlsoMarksWhatChangedMethodsReach() {
        boolean[] affected = ImpactAnalysis.BA.affected(old, modified('C'));
        assertThat(affected[node(old, "A0")]).isFalse();
        assertThat(affected[node(old, "A0/B1")]).isFalse();
        assertThat(affected[node(old, "A0/C2")]).isTrue();
        assertThat(affected[node(old, "A0/C2/D1")]).isTrue();
    }

    @Test
    void baMarksEveryContextOfAReachedMethod() {
        // D is reached from modified C, so D's context under B is affected too
        Cct t = MigrationTrees.of("A0/C2/D1", 1, "A0/B1/D3", 1);
        boolean[] affected = ImpactAnalysis.BA.affected(t, modified('C'));
        assertThat(affected[node(t, "A0/B1/D3")]).isTrue();
        assertThat(affected[node(t, "A0/B1")]).isFalse();
    }

    @Test
    void agCallerAlsoMarksEveryContextUnderAChangedCallerButNotOtherContextsOfItsCallees() {
        // C modified. AG: C2 only. AG_CALLER: C2 and its whole subtree (D1, E4), but D under the
        // unchanged B stays reusable. BA: also A0/B1/D3, because D is reached from C.
        Cct t = MigrationTrees.of("A0/C2/D1/E4", 1, "A0/B1/D3", 1, "A0/B1", 1);
        String[] paths = {"A0", "A0/B1", "A0/B1/D3", "A0/C2", "A0/C2/D1", "A0/C2/D1/E4"};
        assertAffected(ImpactAnalysis.AG, t, modified('C'), paths, false, false, false, true, false, false);
        assertAffected(ImpactAnalysis.AG_CALLER, t, modified('C'), paths, false, false, false, true, true, true);
        assertAffected(ImpactAnalysis.BA, t, modified('C'), paths, false, false, true, true, true, true);
        // a deleted caller counts as changed too; a change deep down marks only below it
        ChangeList deletedD = new ChangeList(new long[0], new long[] {'D'}, new long[0]);
        assertAffected(ImpactAnalysis.AG_CALLER, t, deletedD, paths, false, false, true, false, true, true);
    }

    private static void assertAffected(ImpactAnalysis mode, Cct t, ChangeList changes, String[] paths,
            boolean... expected) {
        assertThat(expected).hasSameSizeAs(paths);
        boolean[] affected = mode.affected(t, changes);
        for (int i = 0; i < paths.length; i++) {
            assertThat(affected[node(t, paths[i])]).as("%s %s", mode, paths[i]).isEqualTo(expected[i]);
        }
    }

    @Test
    void baTakesCallEdgesOfAddedMethodsFromTheNewTree() {
        // X is added and calls B; the old tree cannot know the edge X→B
        Cct newTree = MigrationTrees.of("A0/X5/B1", 1);
        ChangeList added = new ChangeList(new long[] {'X'}, new long[0], new long[0]);
        assertThat(ImpactAnalysis.BA.affected(old, added)[node(old, "A0/B1")]).isFalse();
        assertThat(ImpactAnalysis.BA.affected(old, added, newTree)[node(old, "A0/B1")]).isTrue();
    }

    @Test
    void agMigrationKeepsOldCountsOfUnchangedMethodsAndTakesChangedOnesFromNewProfile() {
        Migration m = ProfileMigration.migrate(old, modified('C'), ImpactAnalysis.AG, partial);
        Cct t = m.tree();
        // B1: old 4 + new 1; C2: new 3 only (old self 2 dropped); D1: old 4, kept under C2
        assertCounts(m, "A0/B1", 5, 5, 4, 4);
        assertCounts(m, "A0/C2", 3, 7, 0, 4);
        assertCounts(m, "A0/C2/D1", 4, 4, 4, 4);
        assertCounts(m, "A0", 0, 12, 0, 8);
        assertThat(t.total(Cct.ROOT)).isEqualTo(12);
        assertThat(m.isMigrated(node(t, "A0/C2"))).isTrue(); // its total includes D1's migrated 4
        assertThat(m.reusableCount()).isEqualTo(3); // A0, B1, D1
    }

    @Test
    void baMigrationDropsTheWholeAffectedSubtree() {
        Migration m = ProfileMigration.migrate(old, modified('C'), ImpactAnalysis.BA, partial);
        Cct t = m.tree();
        assertCounts(m, "A0/B1", 5, 5, 4, 4);
        assertCounts(m, "A0/C2", 3, 3, 0, 0);
        assertThat(node(t, "A0/C2/D1")).isEqualTo(-1);
        assertCounts(m, "A0", 0, 8, 0, 4);
        assertThat(m.isMigrated(node(t, "A0/C2"))).isFalse();
        assertThat(m.isMigrated(node(t, "A0/B1"))).isTrue();
        assertThat(m.reusableCount()).isEqualTo(2); // A0, B1
    }

    @Test
    void agQualityAgainstRealNewProfile() {
        // Acc: migrated shares A0 12/12, B1 5/12 = .417, C2 7/12 = .583 vs 1, .4, .6: all within
        // .05 -> 3/3. Old entries vs reference: A0 1 vs 1, B1 .4 vs .4, C2 .6 vs .6 truly reusable;
        // D1 .4 vs 0 not. U = {A0, B1, D1}: TP 2, FP 1 (D1); Ū = {C2}: FN 1, TN 0.
        // precision 2/3, recall 2/(2+1) = 2/3, F = 2(2/3)(2/3)/(4/3) = 2/3
        MigrationQuality q = MigrationQuality.of(
                ProfileMigration.migrate(old, modified('C'), ImpactAnalysis.AG, partial), reference, TOLERANCE);
        assertThat(q.acc()).isEqualTo(1.0);
        assertThat(q.precision()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(q.recall()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(q.fMeasure()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(new int[] {q.truePositives(), q.falsePositives(), q.falseNegatives(), q.trueNegatives()})
                .containsExactly(2, 1, 1, 0);
    }

    @Test
    void baQualityAgainstRealNewProfile() {
        // Acc: migrated shares A0 8/8 ok, B1 5/8 = .625 vs .4 wrong, C2 3/8 = .375 vs .6 wrong -> 1/3
        // (the thin partial profile is summed with 4 old samples of B only).
        // U = {A0, B1}: TP 2, FP 0; Ū = {C2, D1}: FN 1 (C2), TN 1 (D1).
        // precision 2/2 = 1, recall 2/3, F = 2(1)(2/3)/(5/3) = 0.8
        MigrationQuality q = MigrationQuality.of(
                ProfileMigration.migrate(old, modified('C'), ImpactAnalysis.BA, partial), reference, TOLERANCE);
        assertThat(q.acc()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(q.precision()).isEqualTo(1.0);
        assertThat(q.recall()).isCloseTo(2.0 / 3, within(1e-12));
        assertThat(q.fMeasure()).isCloseTo(0.8, within(1e-12));
        assertThat(new int[] {q.truePositives(), q.falsePositives(), q.falseNegatives(), q.trueNegatives()})
                .containsExactly(2, 0, 1, 1);
    }

    @Test
    void baReusesNothingWhenTheRootMethodChangesAsInTable2() {
        // seed 001 Sect. 4.3.2: when main changes, BA marks everything; Table 2 then shows
        // precision 1.0, recall 0.0, F 0.0. Here: U empty -> precision 1; truly reusable A0, B1, C2
        // all in Ū -> recall 0, F 0. The migrated tree is the partial one: shares A0 1 ok,
        // B1 1/4 vs .4 wrong, C2 3/4 vs .6 wrong -> Acc 1/3.
        Migration m = ProfileMigration.migrate(old, modified('A'), ImpactAnalysis.BA, partial);
        assertThat(m.reusableCount()).isZero();
        assertThat(MigrationTrees.counts(m.tree())).isEqualTo(MigrationTrees.counts(partial));
        MigrationQuality q = MigrationQuality.of(m, reference, TOLERANCE);
        assertThat(q.precision()).isEqualTo(1.0);
        assertThat(q.recall()).isEqualTo(0.0);
        assertThat(q.fMeasure()).isEqualTo(0.0);
        assertThat(q.acc()).isCloseTo(1.0 / 3, within(1e-12));
    }

    @Test
    void metricsOfTheLoopExampleInSect5() {
        // 100 entries, U = 80 of which TP = 75 (FP 5); Ū = 20 of which TN = 10 (FN 10); TP and Ū
        // correct in the merged profile: Acc = (75 + 20) / 100 = .95. precision 75/80 = .9375,
        // recall 75/85, F = 2·75/(2·75 + 5 + 10) = 150/165
        MigrationQuality q = MigrationQuality.fromCounts(75, 5, 10, 10, 95, 100);
        assertThat(q.acc()).isCloseTo(0.95, within(1e-12));
        assertThat(q.precision()).isCloseTo(0.9375, within(1e-12));
        assertThat(q.recall()).isCloseTo(75.0 / 85, within(1e-12));
        assertThat(q.fMeasure()).isCloseTo(150.0 / 165, within(1e-12));
    }

    private static void assertCounts(Migration m, String path, long self, long total, long migratedSelf,
            long migratedTotal) {
        int n = node(m.tree(), path);
        assertThat(n).as(path).isPositive();
        assertThat(new long[] {m.tree().self(n), m.tree().total(n), m.migratedSelf(n), m.migratedTotal(n)})
                .as(path + " self, total, migrated self, migrated total")
                .containsExactly(self, total, migratedSelf, migratedTotal);
    }
}
