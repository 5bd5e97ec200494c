package io.cctflow.graph.maintenance;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.neo4j.driver.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the graph's maintenance on a schedule: every {@code interval}, one pass ({@link #runPass})
 * of roll-ups ({@link Rollups}, hours settled {@code settle} after their end) then retention
 * ({@link Retention}). A failed pass is logged and the next one tries again; passes run one at a
 * time on one daemon thread ({@code cctflow-rollups}).
 *
 * <p>Thread-safe; {@link #close()} is idempotent. The caller owns the driver.
 */
public final class MaintenanceScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceScheduler.class);

    private final Rollups rollups;
    private final Retention retention;
    private final int retentionBatch;
    private final Clock clock;
    private final ScheduledExecutorService executor;

    private MaintenanceScheduler(Rollups rollups, Retention retention, int retentionBatch, Clock clock) {
        this.rollups = rollups;
        this.retention = retention;
        this.retentionBatch = retentionBatch;
        this.clock = clock;
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cctflow-rollups");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Starts passes every {@code interval}, the first one {@code interval} from now.
     *
     * @param interval positive
     * @param retentionBatch windows deleted per transaction ({@link Retention#deleteExpired})
     */
    public static MaintenanceScheduler start(Driver driver, String database, Duration interval, Duration settle,
            RetentionPolicy retention, int retentionBatch) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("maintenance interval must be positive, got " + interval);
        }
        MaintenanceScheduler scheduler = new MaintenanceScheduler(new Rollups(driver, database, settle),
                new Retention(driver, database, retention), retentionBatch, Clock.systemUTC());
        long every = interval.toMillis();
        scheduler.executor.scheduleWithFixedDelay(scheduler::runPass, every, every, TimeUnit.MILLISECONDS);
        return scheduler;
    }

    /** One roll-up and retention pass; failures are logged and the next pass tries again. */
    void runPass() {
        try {
            long now = clock.millis();
            Rollups.Result r = rollups.rollUp(now);
            Map<?, Long> deleted = retention.deleteExpired(now, retentionBatch);
            LOG.info("roll-up pass: {} hours, {} days, {} windows written; expired windows deleted: {}",
                    r.hours(), r.days(), r.windowsWritten(), deleted);
        } catch (RuntimeException e) {
            LOG.warn("roll-up pass failed; the next pass retries", e);
        }
    }

    /** Stops the schedule; a pass under way is interrupted. */
    @Override
    public void close() {
        executor.shutdownNow();
    }
}
