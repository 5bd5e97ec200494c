package io.cctflow.graph.maintenance;

import io.cctflow.graph.Keys;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.neo4j.driver.Driver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the graph's maintenance on a schedule: every {@code interval}, one pass ({@link #runPass})
 * of roll-ups ({@link Rollups}, hours settled {@code settle} after their end) then retention
 * ({@link Retention}). A failed pass (any {@link Throwable}) is logged and counted ({@link #failures()},
 * which the query service exports) and the next one tries again; passes run one at a
 * time on one daemon thread ({@code cctflow-rollups}). Several replicas may each run a scheduler
 * on one Neo4j: a pass runs only while this replica holds the {@link MaintenanceLease} (ttl three
 * intervals, at least 15 min, renewed at every pass), so one replica at a time runs them, and
 * another takes over when it stops (it releases the lease on {@link #close()}) or dies (the lease
 * expires).
 *
 * <p>Thread-safe; {@link #close()} is idempotent. The caller owns the driver.
 */
public final class MaintenanceScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceScheduler.class);
    /** The lease's name: the pass it guards. */
    static final String LEASE = "rollup";
    /** How long {@link #close()} waits for an interrupted pass to end before releasing the lease. */
    private static final long CLOSE_WAIT_SECONDS = 10;

    /**
     * The shortest lease ttl, 15 min: three of the 5-min intervals that were the default before
     * 2026-12-01. The longest pass measured, a catch-up over 4 h of 1,000 busy instances, took
     * 350 s (query benchmark's build on a loaded machine).
     */
    static final Duration MIN_LEASE_TTL = Duration.ofMinutes(15);

    private final Rollups rollups;
    private final Retention retention;
    private final int retentionBatch;
    private final Clock clock;
    private final ScheduledExecutorService executor;
    private final MaintenanceLease lease;
    private final PassHook hook;
    private final AtomicLong passes = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    /** Runs at the start of every pass that holds the lease: how tests make a pass fail. */
    @FunctionalInterface
    interface PassHook {
        PassHook NONE = now -> { };

        void beforePass(long nowMillis);
    }

    private MaintenanceScheduler(Rollups rollups, Retention retention, int retentionBatch, Clock clock,
            MaintenanceLease lease, PassHook hook) {
        this.lease = lease;
        this.hook = hook;
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
     * Starts passes every {@code interval}, the first one {@code interval} from now, with {@value
     * Keys#DEFAULT_INSTANCE_GROUPS} instance groups.
     *
     * @param interval positive
     * @param retentionBatch windows deleted per transaction ({@link Retention#deleteExpired})
     */
    public static MaintenanceScheduler start(Driver driver, String database, Duration interval, Duration settle,
            RetentionPolicy retention, int retentionBatch) {
        return start(driver, database, interval, settle, Rollups.DEFAULT_MINUTE_SETTLE, retention, retentionBatch,
                Keys.DEFAULT_INSTANCE_GROUPS, PassHook.NONE);
    }

    /**
     * {@link #start(Driver, String, Duration, Duration, RetentionPolicy, int)} with the minutes of
     * the slot not settled yet summed {@code minuteSettle} after their end, and each deployment's
     * instances summed in {@code instanceGroups} groups ({@link Rollups#Rollups(Driver, String,
     * Duration, Duration, int)}).
     */
    public static MaintenanceScheduler start(Driver driver, String database, Duration interval, Duration settle,
            Duration minuteSettle, RetentionPolicy retention, int retentionBatch, int instanceGroups) {
        return start(driver, database, interval, settle, minuteSettle, retention, retentionBatch, instanceGroups,
                PassHook.NONE);
    }

    /**
     * {@link #start(Driver, String, Duration, Duration, Duration, RetentionPolicy, int, int)} with a
     * hook before every pass.
     */
    static MaintenanceScheduler start(Driver driver, String database, Duration interval, Duration settle,
            Duration minuteSettle, RetentionPolicy retention, int retentionBatch, int instanceGroups, PassHook hook) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("maintenance interval must be positive, got " + interval);
        }
        MaintenanceScheduler scheduler = new MaintenanceScheduler(new Rollups(driver, database, settle, minuteSettle,
                instanceGroups, true),
                new Retention(driver, database, retention), retentionBatch, Clock.systemUTC(),
                new MaintenanceLease(driver, database, LEASE, MaintenanceLease.newHolder(), leaseTtl(interval)), hook);
        long every = interval.toMillis();
        scheduler.executor.scheduleWithFixedDelay(scheduler::runPass, every, every, TimeUnit.MILLISECONDS);
        return scheduler;
    }

    /**
     * The lease's ttl: three intervals, so the holder renews it twice before another replica could
     * take it, and at least {@link #MIN_LEASE_TTL}: a pass may run that long (a catch-up over hours
     * of a large fleet) without another replica starting one beside it. A holder that dies is
     * replaced after it.
     */
    static Duration leaseTtl(Duration interval) {
        Duration three = interval.multipliedBy(3);
        return three.compareTo(MIN_LEASE_TTL) < 0 ? MIN_LEASE_TTL : three;
    }

    /**
     * One roll-up and retention pass if this replica holds the lease (others skip it). Whatever it
     * throws, {@link Error}s included, is logged and counted ({@link #failures()}) and the next pass
     * tries again one interval later; only a pass interrupted by {@link #close()} is not counted.
     */
    void runPass() {
        try {
            long now = clock.millis();
            if (!lease.tryAcquire(now)) {
                LOG.debug("roll-up pass skipped: another replica holds the lease");
                return;
            }
            hook.beforePass(now);
            Rollups.Result r = rollups.rollUp(now);
            refused.addAndGet(r.refused());
            Map<?, Long> deleted = retention.deleteExpired(now, retentionBatch);
            LOG.info("roll-up pass: {} hours, {} ten-minute slots of live hours, {} minutes of live slots ({} deployments'"
                    + " minutes unchanged since summed), {} days, {} windows written, {} fine windows refused;"
                    + " expired windows deleted: {}", r.hours(), r.slots(), r.minutes(), r.minutesKept(), r.days(),
                    r.windowsWritten(), r.refused(), deleted);
            passes.incrementAndGet();
        } catch (Throwable t) { // an Error thrown out of a scheduled task would end the schedule silently
            if (executor.isShutdown()) {
                LOG.debug("roll-up pass stopped by close()", t);
                return;
            }
            failures.incrementAndGet();
            LOG.error("roll-up pass failed ({} failures since the start); the next pass, in one interval, retries",
                    failures.get(), t);
        }
    }

    /** Passes that ran to the end since the start. */
    public long passes() {
        return passes.get();
    }

    /** Passes that failed since the start (each logged; the next one retries). */
    public long failures() {
        return failures.get();
    }

    /** Fine windows refused by roll-ups since the start ({@link Rollups.Result#refused}). */
    public long refusedWindows() {
        return refused.get();
    }

    /**
     * Stops the schedule (a pass under way is interrupted, and waited for up to {@value
     * #CLOSE_WAIT_SECONDS} s) and releases the lease.
     */
    @Override
    public void close() {
        if (executor.isShutdown()) {
            return;
        }
        executor.shutdownNow();
        try {
            if (!executor.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("the roll-up pass did not stop within {} s of close()", CLOSE_WAIT_SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            lease.release();
        } catch (RuntimeException e) {
            LOG.warn("could not release the roll-up lease; another replica takes it when it expires", e);
        }
    }
}
