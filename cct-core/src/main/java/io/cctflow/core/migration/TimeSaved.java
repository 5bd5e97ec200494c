package io.cctflow.core.migration;

import io.cctflow.core.Cct;
import java.time.Duration;
import java.util.Objects;

/**
 * TS, the time saved by profile migration (seed 001 Sect. 5 (3)): "the total reduction of
 * profiling time of all runs (with the profile migration overhead counted) divided by the total
 * profiling time of the new version when migration is not used".
 *
 * <p>For one run, with
 *
 * <ul>
 *   <li>F = {@link #withoutMigration()}: profiling time the new version needs without migration,
 *       i.e. to collect its full (reference) profile from scratch;
 *   <li>P = {@link #profiled()}: profiling time actually spent on the new version with migration
 *       (its partial profile);
 *   <li>O = {@link #overhead()}: time the migration itself took (impact analysis, discrimination,
 *       merging),
 * </ul>
 *
 * the reduction is {@code F - (P + O)} ({@link #saved()}) and {@code TS = (F - P - O) / F}
 * ({@link #ts()}). Over several runs, {@link #plus} adds F, P and O separately, so TS of the sum is
 * {@code sum of reductions / sum of F}: a ratio of totals, as the paper defines it, not a mean of
 * per-run ratios.
 *
 * <p><b>Range.</b> {@code TS <= 1}, with 1 only when nothing was profiled and the migration cost
 * nothing. TS is <em>negative</em> when {@code P + O > F}: the migration cost more than it saved
 * (its overhead exceeds the savings, e.g. when nothing is reusable and P is about F). It is kept
 * negative, not clamped to 0, so that a migration that does not pay is visible. (Seed 001 Table 2
 * shows 0 % for runs that reused nothing; its overhead was negligible there.)
 *
 * <p><b>Two sources.</b> {@link #measured} takes the three durations as measured. {@link
 * #estimated} derives F and P from sample counts for a sampling profiler, and takes a measured O.
 *
 * <p>Immutable and thread-safe. Every instance is valid: F &gt; 0, P &ge; 0, O &ge; 0.
 *
 * @param withoutMigration F, &gt; 0 (TS divides by it)
 * @param profiled P, &ge; 0; may exceed F (a measured partial run can take longer than a full one)
 * @param overhead O, &ge; 0
 */
public record TimeSaved(Duration withoutMigration, Duration profiled, Duration overhead) {

    public TimeSaved {
        Objects.requireNonNull(withoutMigration, "withoutMigration");
        Objects.requireNonNull(profiled, "profiled");
        Objects.requireNonNull(overhead, "overhead");
        if (withoutMigration.isNegative() || withoutMigration.isZero()) {
            throw new IllegalArgumentException(
                    "profiling time without migration must be > 0 (TS divides by it): " + withoutMigration);
        }
        if (profiled.isNegative()) {
            throw new IllegalArgumentException("profiling time spent with migration must be >= 0: " + profiled);
        }
        if (overhead.isNegative()) {
            throw new IllegalArgumentException("migration overhead must be >= 0: " + overhead);
        }
    }

    /**
     * TS from measured wall-clock durations of one run.
     *
     * @param fullProfiling F: time to profile the new version fully, without migration
     * @param partialProfiling P: time actually spent profiling the new version with migration
     * @param migrationOverhead O: time the migration itself took
     * @throws IllegalArgumentException if F &le; 0, P &lt; 0 or O &lt; 0
     */
    public static TimeSaved measured(Duration fullProfiling, Duration partialProfiling, Duration migrationOverhead) {
        return new TimeSaved(fullProfiling, partialProfiling, migrationOverhead);
    }

    /**
     * TS estimated from samples, for a sampling profiler run at one sampling rate.
     *
     * <ul>
     *   <li>F = {@code reference.total(ROOT) / samplesPerSecond}: the time the full profile of the
     *       new version took to collect its samples.
     *   <li>P = {@link #neededSamples neededSamples(migration, reference)} {@code /
     *       samplesPerSecond}: the time to collect, at the same rate, only the samples that the
     *       old profile cannot stand in for.
     *   <li>O = {@code migrationOverhead}, measured.
     * </ul>
     *
     * <p>The model is seed 001's selective profiling (Sect. 4.3.4: the exempted constructs are not
     * profiled), with cost proportional to samples taken. A whole-process sampler cannot skip
     * samples by context; for it this is the saving an ideal selective sampler would get, an upper
     * bound. Durations are rounded to the nanosecond.
     *
     * @param migration the migration whose reusable/affected split is judged
     * @param reference the real (full) profile of the new version; must hold at least one sample
     * @param samplesPerSecond the rate at which the profiler collects samples (all threads
     *     together), finite and &gt; 0; e.g. {@code reference.total(ROOT)} / its recording time
     * @param migrationOverhead O, &ge; 0
     * @throws IllegalArgumentException if the reference has no samples, the rate is not finite and
     *     positive, or the overhead is negative
     */
    public static TimeSaved estimated(Migration migration, Cct reference, double samplesPerSecond,
            Duration migrationOverhead) {
        Objects.requireNonNull(migration, "migration");
        Objects.requireNonNull(reference, "reference");
        if (!(samplesPerSecond > 0) || Double.isInfinite(samplesPerSecond)) {
            throw new IllegalArgumentException("samplesPerSecond must be finite and > 0: " + samplesPerSecond);
        }
        long all = reference.total(Cct.ROOT);
        if (all <= 0) {
            throw new IllegalArgumentException("the reference profile has no samples, so the profiling time "
                    + "without migration is 0 and TS is undefined");
        }
        return new TimeSaved(samplesToTime(all, samplesPerSecond),
                samplesToTime(neededSamples(migration, reference), samplesPerSecond), migrationOverhead);
    }

    /**
     * The samples of {@code reference} that the migration cannot do without: a sample is
     * <em>needed</em> iff some context on its path (root excluded) is not reusable, i.e. is
     * missing from the old tree or judged affected there ({@link Migration#isReusable}). A sample
     * that passes through an affected context is needed even when its leaf context is reusable,
     * because it counts in the affected context's total (a sample is counted once on every node
     * of its path). Samples of the root itself (empty stacks) pass through no context and are not
     * needed. Between 0 and {@code reference.total(ROOT)}.
     */
    public static long neededSamples(Migration migration, Cct reference) {
        Objects.requireNonNull(migration, "migration");
        Objects.requireNonNull(reference, "reference");
        Cct old = migration.oldTree();
        boolean[] needed = new boolean[reference.size()];
        long samples = 0;
        // parents have smaller indexes than children: one top-down pass settles every path
        for (int n = 1; n < reference.size(); n++) {
            int o = old.indexOf(reference.id(n));
            needed[n] = needed[reference.parent(n)] || o < 0 || !migration.isReusable(o);
            if (needed[n]) {
                samples += reference.self(n);
            }
        }
        return samples;
    }

    /** The runs together: F, P and O each summed, so {@link #ts()} is the paper's ratio of totals. */
    public TimeSaved plus(TimeSaved other) {
        return new TimeSaved(withoutMigration.plus(other.withoutMigration), profiled.plus(other.profiled),
                overhead.plus(other.overhead));
    }

    /** The reduction of profiling time, {@code F - P - O}; negative when the migration did not pay. */
    public Duration saved() {
        return withoutMigration.minus(profiled).minus(overhead);
    }

    /** TS = {@code (F - P - O) / F}, at most 1, negative when the migration did not pay. */
    public double ts() {
        return seconds(saved()) / seconds(withoutMigration);
    }

    private static double seconds(Duration d) {
        if (d.isNegative()) {
            // -1 ns is (-1 s, +999999999 ns): adding those would cancel away the digits
            return -seconds(d.negated());
        }
        return d.getSeconds() + d.getNano() / 1e9;
    }

    private static Duration samplesToTime(long samples, double samplesPerSecond) {
        double nanos = samples / samplesPerSecond * 1e9;
        if (nanos >= Long.MAX_VALUE) {
            throw new IllegalArgumentException(samples + " samples at " + samplesPerSecond
                    + " samples/s is longer than a Duration of nanoseconds can hold; use a realistic rate");
        }
        return Duration.ofNanos(Math.round(nanos));
    }
}
