package io.cctflow.agent.log;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Logs a warning at most once per interval and says how many were suppressed in between. An
 * unreachable broker or a broken event would otherwise print one line per batch or per sample
 * into the host's {@code stderr}.
 *
 * <p>Thread safety: safe for concurrent use; at most one caller wins each interval.
 */
public final class RateLimitedLog {
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final AtomicLong nextAllowedNanos;
    private final AtomicLong suppressed = new AtomicLong();

    /**
     * @param interval minimum time between two logged lines
     * @param nanoClock monotonic clock in nanoseconds, e.g. {@code System::nanoTime}
     */
    public RateLimitedLog(long interval, TimeUnit unit, LongSupplier nanoClock) {
        this.intervalNanos = unit.toNanos(interval);
        this.nanoClock = nanoClock;
        this.nextAllowedNanos = new AtomicLong(nanoClock.getAsLong());
    }

    /** A limiter that logs at most once a minute, on the system's monotonic clock. */
    public static RateLimitedLog perMinute() {
        return new RateLimitedLog(1, TimeUnit.MINUTES, System::nanoTime);
    }

    /**
     * Logs {@code message} and {@code failure} if the interval has passed since the last logged
     * line, else only counts it.
     *
     * @return whether the line was logged
     */
    public boolean warn(String message, Throwable failure) {
        if (!tryAcquire()) {
            return false;
        }
        AgentLog.warn(message + suppressedNote(), failure);
        return true;
    }

    /** Like {@link #warn(String, Throwable)} without a throwable. */
    public boolean warn(String message) {
        if (!tryAcquire()) {
            return false;
        }
        AgentLog.warn(message + suppressedNote());
        return true;
    }

    private boolean tryAcquire() {
        long now = nanoClock.getAsLong();
        long next = nextAllowedNanos.get();
        // compare as a difference: nanoTime may be negative and may wrap
        if (now - next >= 0 && nextAllowedNanos.compareAndSet(next, now + intervalNanos)) {
            return true;
        }
        suppressed.incrementAndGet();
        return false;
    }

    private String suppressedNote() {
        long n = suppressed.getAndSet(0);
        return n == 0 ? "" : " (" + n + " similar suppressed)";
    }
}
