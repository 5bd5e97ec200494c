package io.cctflow.agent.batch;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import io.cctflow.agent.log.AgentLog;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.schema.SampleBatch;

/**
 * Drains the aggregator into the sink every flush interval on one daemon thread,
 * {@value #THREAD_NAME}, and once more on shutdown: one batch per interval, a stats-only
 * heartbeat (no methods, no stacks) when nothing was sampled.
 *
 * <p>A batch whose stats carry a truncation warning ({@link TruncationWarning}) is also reported
 * on stderr: with the first such batch, then at most every ten minutes.
 *
 * <p>The first flush comes after a random fraction of the interval so that a fleet started at
 * once (a deployment) does not send in lockstep; the {@link Random} is injected for tests.
 *
 * <p>Thread safety: {@link #start} and {@link #shutdown} are meant for one controlling thread;
 * {@link #flush} may run on any thread, concurrently with the scheduled one.
 */
public final class BatchFlusher {
    /** Name of the flusher thread. */
    public static final String THREAD_NAME = "cctflow-flusher";

    private final BatchAggregator aggregator;
    private final BatchSink sink;
    private final long flushMillis;
    private final Random random;
    private final LongSupplier clockMillis;
    private final RateLimitedLog failures = RateLimitedLog.perMinute();
    // a too-small stack depth is a lasting condition: say it with the first batch, then rarely
    private final RateLimitedLog truncation = new RateLimitedLog(10, TimeUnit.MINUTES, System::nanoTime);
    private final ScheduledExecutorService executor;

    /**
     * @param clockMillis wall clock in epoch milliseconds, e.g. {@code System::currentTimeMillis}
     */
    public BatchFlusher(BatchAggregator aggregator, BatchSink sink, long flushMillis, Random random,
            LongSupplier clockMillis) {
        this(aggregator, sink, flushMillis, random, clockMillis,
                Executors.newSingleThreadScheduledExecutor(daemonThreads()));
    }

    /**
     * As above, flushing on {@code executor}, which the flusher owns and shuts down; tests pass
     * one that shows the schedule.
     */
    BatchFlusher(BatchAggregator aggregator, BatchSink sink, long flushMillis, Random random,
            LongSupplier clockMillis, ScheduledExecutorService executor) {
        this.aggregator = aggregator;
        this.sink = sink;
        this.flushMillis = flushMillis;
        this.random = random;
        this.clockMillis = clockMillis;
        this.executor = executor;
    }

    /**
     * Schedules the periodic flushes: the first after {@link #initialDelayMillis}, drawn from the
     * flusher's {@link Random}, then one every flush interval.
     */
    public void start() {
        executor.scheduleAtFixedRate(this::flush, initialDelayMillis(flushMillis, random),
                flushMillis, TimeUnit.MILLISECONDS);
    }

    /** The first flush's delay: a uniformly random fraction of the interval, in [0, interval). */
    static long initialDelayMillis(long flushMillis, Random random) {
        return (long) (random.nextDouble() * flushMillis);
    }

    /**
     * Drains the current window and hands its batch to the sink: a stats-only heartbeat when the
     * window sampled nothing ({@link BatchAggregator#drainOrHeartbeat}), so an idle JVM still
     * reports its counters every interval. Never throws: a periodic task that threw would silently
     * never run again.
     */
    public void flush() {
        try {
            SampleBatch batch = aggregator.drainOrHeartbeat(clockMillis.getAsLong());
            warnIfTruncated(batch);
            sink.send(batch);
        } catch (Throwable t) {
            // the agent must keep running whatever happened to one batch
            failures.warn("flush failed", t);
        }
    }

    private void warnIfTruncated(SampleBatch batch) {
        if (batch.getStats() != null && !batch.getStats().getTruncationWarning().isEmpty()) {
            truncation.warn(batch.getStats().getTruncationWarning());
        }
    }

    /**
     * Stops the periodic flushes, waits up to {@code timeout} for one in progress, then flushes
     * the last window on the calling thread. Safe to call more than once.
     */
    public void shutdown(Duration timeout) {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                AgentLog.warn("a flush was still running at shutdown");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flush();
    }

    private static ThreadFactory daemonThreads() {
        return runnable -> {
            Thread t = new Thread(runnable, THREAD_NAME);
            t.setDaemon(true);
            return t;
        };
    }
}
