package io.cctflow.core.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

class TimeSavedPropertyTest {

    @Property(tries = 300)
    void neededSamplesAndEstimateMatchABruteForceRecomputation(@ForAll long seed, @ForAll ImpactAnalysis mode,
            @ForAll @IntRange(min = 1, max = 40) int stacks, @ForAll @IntRange(min = 1, max = 1000) int rate,
            @ForAll @IntRange(min = 0, max = 20_000) int overheadMillis) {
        Cct old = MigrationTrees.random(seed, stacks, 6, 5);
        Cct partial = MigrationTrees.random(seed + 1, stacks / 2, 6, 5);
        // alphabet 6: the reference may run contexts (and the added method 6) the old tree lacks
        Cct reference = MigrationTrees.random(seed + 2, stacks, 6, 6);
        ChangeList changes = MigrationTrees.randomChanges(seed, 5);
        Migration m = ProfileMigration.migrate(old, changes, mode, partial);

        // brute force: walk every sampled context's path and look each context up in the old tree
        boolean[] affected = mode.affected(old, changes, partial);
        long needed = 0;
        for (int n = 1; n < reference.size(); n++) {
            boolean reusablePath = true;
            for (int p = n; p != Cct.ROOT; p = reference.parent(p)) {
                int o = old.indexOf(reference.id(p));
                reusablePath &= o >= 0 && !affected[o];
            }
            if (!reusablePath) {
                needed += reference.self(n);
            }
        }
        long all = reference.total(Cct.ROOT);
        assertThat(TimeSaved.neededSamples(m, reference)).isEqualTo(needed).isBetween(0L, all);

        TimeSaved ts = TimeSaved.estimated(m, reference, rate, Duration.ofMillis(overheadMillis));
        double expected = (double) (all - needed) / all - overheadMillis / 1000.0 * rate / all;
        // F and P are rounded to whole nanoseconds: half a nanosecond each, relative to F
        double fullNanos = all * 1e9 / rate;
        assertThat(ts.ts()).isCloseTo(expected, within((1 + Math.abs(expected)) / fullNanos + 1e-12))
                .isLessThanOrEqualTo(1.0);
        // negative exactly when the overhead exceeds the saved sampling time (exact in integers:
        // (all - needed) / rate s vs overheadMillis / 1000 s)
        long savedTimesThousandRate = (all - needed) * 1000 - (long) overheadMillis * rate;
        if (savedTimesThousandRate != 0) {
            assertThat(Math.signum(ts.ts())).isEqualTo(Math.signum(savedTimesThousandRate));
        }
    }

    @Property(tries = 200)
    void noChangeAndAFullOldProfileNeedNoSample(@ForAll long seed, @ForAll ImpactAnalysis mode,
            @ForAll @IntRange(min = 1, max = 40) int stacks) {
        Cct tree = MigrationTrees.random(seed, stacks, 6, 5);
        Migration m = ProfileMigration.migrate(tree, ChangeList.NONE, mode, new Cct());
        assertThat(TimeSaved.neededSamples(m, tree)).isZero();
    }

    @Property(tries = 200)
    void tsOfSeveralRunsIsTheTotalReductionOverTheTotalFullTime(
            @ForAll @Size(min = 1, max = 10) List<@LongRange(min = 1, max = 1_000_000_000_000L) Long> full,
            @ForAll long seed) {
        Random r = new Random(seed);
        TimeSaved sum = null;
        long totalFull = 0;
        long totalSaved = 0;
        for (long f : full) {
            long p = (long) (r.nextDouble() * 1.5 * f);
            long o = (long) (r.nextDouble() * 0.2 * f);
            TimeSaved run = TimeSaved.measured(Duration.ofNanos(f), Duration.ofNanos(p), Duration.ofNanos(o));
            assertThat(run.saved()).isEqualTo(Duration.ofNanos(f - p - o));
            sum = sum == null ? run : sum.plus(run);
            totalFull += f;
            totalSaved += f - p - o;
        }
        assertThat(sum.withoutMigration()).isEqualTo(Duration.ofNanos(totalFull));
        assertThat(sum.saved()).isEqualTo(Duration.ofNanos(totalSaved));
        assertThat(sum.ts()).isCloseTo((double) totalSaved / totalFull, within(1e-9));
    }
}
