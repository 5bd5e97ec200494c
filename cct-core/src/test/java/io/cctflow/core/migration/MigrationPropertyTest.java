package io.cctflow.core.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

class MigrationPropertyTest {

    @Property(tries = 200)
    void withNoChangesMigrationIsTheSumOfOldAndPartialTrees(@ForAll long seed, @ForAll ImpactAnalysis mode,
            @ForAll @IntRange(min = 0, max = 40) int stacks) {
        Cct old = MigrationTrees.random(seed, stacks, 6, 5);
        Cct partial = MigrationTrees.random(seed + 1, stacks / 2, 6, 5);
        Migration m = ProfileMigration.migrate(old, ChangeList.NONE, mode, partial);
        assertThat(MigrationTrees.counts(m.tree())).isEqualTo(MigrationTrees.sum(old, partial));
        assertThat(m.reusableCount()).isEqualTo(old.size() - 1);
    }

    @Property(tries = 200)
    void agAffectedIsSubsetOfBaAffected(@ForAll long seed, @ForAll @IntRange(min = 0, max = 40) int stacks) {
        Cct tree = MigrationTrees.random(seed, stacks, 6, 5);
        ChangeList changes = MigrationTrees.randomChanges(seed, 5);
        boolean[] ag = ImpactAnalysis.AG.affected(tree, changes);
        boolean[] ba = ImpactAnalysis.BA.affected(tree, changes);
        for (int n = 0; n < tree.size(); n++) {
            assertThat(!ag[n] || ba[n]).as("node %d", n).isTrue();
        }
    }

    @Property(tries = 300)
    void agCallerMarksExactlyTheNodesWithAChangedMethodOnTheirPath(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 40) int stacks) {
        Cct tree = MigrationTrees.random(seed, stacks, 6, 5);
        ChangeList changes = MigrationTrees.randomChanges(seed, 5);
        boolean[] agCaller = ImpactAnalysis.AG_CALLER.affected(tree, changes);
        assertThat(agCaller[Cct.ROOT]).isFalse();
        for (int n = 1; n < tree.size(); n++) {
            boolean changedOnPath = false;
            for (int p = n; p != Cct.ROOT; p = tree.parent(p)) {
                long m = tree.method(p);
                changedOnPath |= changes.isModified(m) || changes.isAdded(m) || changes.isDeleted(m);
            }
            assertThat(agCaller[n]).as("node %d", n).isEqualTo(changedOnPath);
        }
    }

    @Property(tries = 200)
    void analysesAreNestedFromAgThroughAgCallerToBa(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 40) int stacks) {
        Cct tree = MigrationTrees.random(seed, stacks, 6, 5);
        Cct more = MigrationTrees.random(seed + 1, stacks / 2, 6, 7);
        ChangeList changes = MigrationTrees.randomChanges(seed, 5);
        boolean[] ag = ImpactAnalysis.AG.affected(tree, changes, more);
        boolean[] agCaller = ImpactAnalysis.AG_CALLER.affected(tree, changes, more);
        boolean[] ba = ImpactAnalysis.BA.affected(tree, changes, more);
        for (int n = 0; n < tree.size(); n++) {
            assertThat(!ag[n] || agCaller[n]).as("AG within AG_CALLER, node %d", n).isTrue();
            assertThat(!agCaller[n] || ba[n]).as("AG_CALLER within BA, node %d", n).isTrue();
        }
    }

    @Property(tries = 200)
    void baIsClosedUnderSubtrees(@ForAll long seed, @ForAll @IntRange(min = 0, max = 40) int stacks) {
        Cct tree = MigrationTrees.random(seed, stacks, 6, 5);
        boolean[] ba = ImpactAnalysis.BA.affected(tree, MigrationTrees.randomChanges(seed, 5));
        for (int n = 1; n < tree.size(); n++) {
            assertThat(!ba[tree.parent(n)] || ba[n]).as("node %d", n).isTrue();
        }
    }

    @Property(tries = 200)
    void affectedOldCountsNeverReachTheMigratedTree(@ForAll long seed, @ForAll ImpactAnalysis mode,
            @ForAll @IntRange(min = 0, max = 40) int stacks) {
        Cct old = MigrationTrees.random(seed, stacks, 6, 5);
        Cct partial = MigrationTrees.random(seed + 1, stacks / 2, 6, 5);
        ChangeList changes = MigrationTrees.randomChanges(seed, 5);
        Migration m = ProfileMigration.migrate(old, changes, mode, partial);
        boolean[] affected = mode.affected(old, changes, partial);
        long reusableSelf = 0;
        for (int n = 0; n < old.size(); n++) {
            if (!affected[n]) {
                reusableSelf += old.self(n);
            }
        }
        assertThat(m.migratedTotal(Cct.ROOT)).isEqualTo(reusableSelf);
        assertThat(m.tree().total(Cct.ROOT)).isEqualTo(reusableSelf + partial.total(Cct.ROOT));
        for (int n = 0; n < m.tree().size(); n++) {
            int o = old.indexOf(m.tree().id(n));
            if (o >= 0 && affected[o]) {
                assertThat(m.migratedSelf(n)).isZero();
            }
        }
    }

    @Property(tries = 200)
    void qualityOfAProfileAgainstItselfIsPerfect(@ForAll long seed, @ForAll ImpactAnalysis mode,
            @ForAll @IntRange(min = 0, max = 40) int stacks) {
        Cct tree = MigrationTrees.random(seed, stacks, 6, 5);
        MigrationQuality q = MigrationQuality.of(
                ProfileMigration.migrate(tree, ChangeList.NONE, mode, new Cct()), tree, 0.0);
        assertThat(new double[] {q.acc(), q.precision(), q.recall(), q.fMeasure()}).containsOnly(1.0);
    }

    @Property(tries = 300)
    void accCountsTheReferenceContextsWhoseMigratedShareTheToleranceAccepts(@ForAll long seed,
            @ForAll ImpactAnalysis mode, @ForAll @IntRange(min = 0, max = 40) int stacks,
            @ForAll @DoubleRange(min = 0, max = 0.2) double absolute, @ForAll @DoubleRange(min = 0, max = 3) double z) {
        Cct old = MigrationTrees.random(seed, stacks, 6, 5);
        Cct partial = MigrationTrees.random(seed + 1, stacks / 3, 6, 5);
        Cct reference = MigrationTrees.random(seed + 2, stacks, 6, 5);
        Migration m = ProfileMigration.migrate(old, MigrationTrees.randomChanges(seed, 5), mode, partial);
        ShareTolerance tolerance = new ShareTolerance(absolute, z);

        // brute force: the trees as maps of contexts, a missing context has share 0
        Map<Long, Map.Entry<Long, Long>> real = MigrationTrees.counts(reference);
        Map<Long, Map.Entry<Long, Long>> migrated = MigrationTrees.counts(m.tree());
        long realRoot = reference.total(Cct.ROOT);
        long migratedRoot = m.tree().total(Cct.ROOT);
        int correct = 0;
        for (Map.Entry<Long, Map.Entry<Long, Long>> e : real.entrySet()) {
            if (e.getKey() == reference.id(Cct.ROOT)) {
                continue;
            }
            double b = realRoot == 0 ? 0 : (double) e.getValue().getValue() / realRoot;
            Map.Entry<Long, Long> mine = migrated.get(e.getKey());
            double a = mine == null || migratedRoot == 0 ? 0 : (double) mine.getValue() / migratedRoot;
            double sd = realRoot == 0 ? 0 : Math.sqrt(2 * b * (1 - b) / realRoot);
            if (Math.abs(a - b) <= absolute + z * sd) {
                correct++;
            }
        }

        MigrationQuality q = MigrationQuality.of(m, reference, tolerance);
        assertThat(q.correctEntries()).isEqualTo(correct);
        assertThat(q.referenceEntries()).isEqualTo(real.size() - 1);
        // a wider tolerance never finds fewer entries correct
        MigrationQuality wider = MigrationQuality.of(m, reference, new ShareTolerance(absolute + 0.05, z + 1));
        assertThat(wider.correctEntries()).isGreaterThanOrEqualTo(q.correctEntries());
        assertThat(wider.truePositives() + wider.falseNegatives())
                .isGreaterThanOrEqualTo(q.truePositives() + q.falseNegatives());
    }

    @Property(tries = 200)
    void underTheSamplingToleranceTheRealProfileIsPerfectAndAnEmptyOneOnlyRightWhereFewSamplesFell(
            @ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int stacks) {
        Cct reference = MigrationTrees.random(seed, stacks, 6, 5);
        ShareTolerance twoSigma = ShareTolerance.sampling(2);
        Migration itself = ProfileMigration.migrate(reference, ChangeList.NONE, ImpactAnalysis.AG, new Cct());
        assertThat(MigrationQuality.of(itself, reference, twoSigma).acc()).isEqualTo(1.0);

        Migration empty = ProfileMigration.migrate(new Cct(), ChangeList.NONE, ImpactAnalysis.AG, new Cct());
        long n = reference.total(Cct.ROOT);
        long absoluteSmall = 0;
        long samplingSmall = 0;
        for (int k = 1; k < reference.size(); k++) {
            double b = (double) reference.total(k) / n;
            if (b <= 0.01) {
                absoluteSmall++;
            }
            // share 0 is within two standard deviations: b <= 2 sqrt(2 b (1 - b) / n)
            if (b <= 2 * Math.sqrt(2 * b * (1 - b) / n)) {
                samplingSmall++;
            }
        }
        assertThat(MigrationQuality.of(empty, reference, ShareTolerance.absolute(0.01)).correctEntries())
                .isEqualTo(absoluteSmall);
        assertThat(MigrationQuality.of(empty, reference, twoSigma).correctEntries()).isEqualTo(samplingSmall);
    }
}
