package io.cctflow.core.migration;

import io.cctflow.core.Cct;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything seed 001 Sect. 5 reports about one migration run, in one place: the {@link
 * Migration} itself, its {@link MigrationQuality} (Acc, precision, recall, F-measure) and its
 * {@link TimeSaved} (TS), both measured against the real profile of the new version. The factories
 * only delegate to {@link MigrationQuality#of} and {@link TimeSaved}; several runs' TS add up with
 * {@link TimeSaved#plus}.
 *
 * <p>Immutable as a record; {@link #migration()} shares the caveats of {@link Migration} (live
 * trees that must not change while read).
 */
public record MigrationReport(Migration migration, MigrationQuality quality, TimeSaved timeSaved) {

    public MigrationReport {
        Objects.requireNonNull(migration, "migration");
        Objects.requireNonNull(quality, "quality");
        Objects.requireNonNull(timeSaved, "timeSaved");
    }

    /**
     * The report with TS from measured durations ({@link TimeSaved#measured}).
     *
     * @param reference the real profile of the new version
     * @param tolerance as in {@link MigrationQuality#of}
     */
    public static MigrationReport measured(Migration migration, Cct reference, double tolerance,
            Duration fullProfiling, Duration partialProfiling, Duration migrationOverhead) {
        return new MigrationReport(migration, MigrationQuality.of(migration, reference, tolerance),
                TimeSaved.measured(fullProfiling, partialProfiling, migrationOverhead));
    }

    /**
     * The report with TS estimated from the samples of {@code reference} ({@link
     * TimeSaved#estimated}).
     *
     * @param reference the real (full) profile of the new version
     * @param tolerance as in {@link MigrationQuality#of}
     */
    public static MigrationReport estimated(Migration migration, Cct reference, double tolerance,
            double samplesPerSecond, Duration migrationOverhead) {
        return new MigrationReport(migration, MigrationQuality.of(migration, reference, tolerance),
                TimeSaved.estimated(migration, reference, samplesPerSecond, migrationOverhead));
    }
}
