package io.cctflow.graph.maintenance;

import io.cctflow.model.Resolution;
import io.cctflow.graph.Sessions;
import io.cctflow.graph.StoreStamp;
import java.util.EnumMap;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

/**
 * Deletes windows older than their resolution's retention ({@link RetentionPolicy}), in batches of
 * bounded size so a large backlog never needs one huge transaction. A window expires when its end
 * is at least the retention before now; a fine window is kept until its hour is rolled up, an
 * hourly one until its day is ({@link RollupState}), so a long query never loses samples to
 * retention: it reads the coarser roll-up instead.
 *
 * <p>Thread-safe as far as the {@link Driver} is; the caller owns the driver.
 */
public final class Retention {
    private final Driver driver;
    private final String database;
    private final RollupProgress progress;
    private final RetentionPolicy policy;

    public Retention(Driver driver, String database, RetentionPolicy policy) {
        this.driver = driver;
        this.database = database;
        this.progress = new RollupProgress(driver, database);
        this.policy = policy;
    }

    /** Deletes every expired window, {@code batchSize} per transaction; returns how many per resolution. */
    public Map<Resolution, Long> deleteExpired(long nowMillis, int batchSize) {
        if (batchSize <= 0) {
            throw new IllegalArgumentException("batchSize must be > 0, got " + batchSize);
        }
        RollupState state = progress.read();
        Map<Resolution, Long> deleted = new EnumMap<>(Resolution.class);
        for (Resolution r : Resolution.values()) {
            long cutoff = nowMillis - policy.of(r).toMillis();
            if (r == Resolution.FINE) {
                cutoff = Math.min(cutoff, state.hourDoneUntil());
            } else if (r == Resolution.HOUR) {
                cutoff = Math.min(cutoff, state.dayDoneUntil());
            }
            deleted.put(r, deleteBefore(r, cutoff, batchSize));
        }
        return deleted;
    }

    private long deleteBefore(Resolution resolution, long cutoff, int batchSize) {
        long total = 0;
        try (Session session = Sessions.open(driver, database)) {
            while (true) {
                long n = session.executeWrite(tx -> {
                    long deleted = tx.run("""
                            MATCH (w:Window)
                            WHERE w.resolution = $resolution AND w.start < $cutoff AND w.end <= $cutoff
                            WITH w LIMIT $batch
                            DETACH DELETE w
                            RETURN count(*) AS n
                            """, Map.of("resolution", resolution.property(), "cutoff", cutoff, "batch", batchSize))
                            .single().get("n").asLong();
                    if (deleted > 0) { // readers that listed the deleted windows list again (StoreStamp)
                        tx.run(StoreStamp.bump(StoreStamp.WINDOWS)).consume();
                    }
                    return deleted;
                });
                total += n;
                if (n < batchSize) {
                    return total;
                }
            }
        }
    }
}
