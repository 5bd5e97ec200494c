package io.cctflow.bench.pipeline;

import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * Batch-to-queryable latency: for a probed batch, the time from the broker's acknowledgement to
 * the moment Neo4j's {@code :Window} of its (execution, job window) holds at least every sample the
 * execution sent into that window up to and including this batch (the sum of the window's self
 * counts: each sample is charged to exactly one leaf). Windows are read with {@link WindowReader}, as
 * the query service reads them, every {@code pollMillis}; that is the resolution of the figure.
 *
 * <p>{@link #count} and {@link #expect} are called by the one generating thread; {@link #poll} by
 * one polling thread; {@link Probe#acked} from the producer's callback thread.
 */
public final class LatencyProbes {
    /** One probed batch. */
    public static final class Probe {
        final String executionKey;
        final long jobWindowStart;
        final long expectedSamples;
        volatile long ackNanos;

        Probe(String executionKey, long jobWindowStart, long expectedSamples) {
            this.executionKey = executionKey;
            this.jobWindowStart = jobWindowStart;
            this.expectedSamples = expectedSamples;
        }

        void acked(long nanos) {
            ackNanos = nanos;
        }
    }

    private final long jobWindowMillis;
    private final long timeoutNanos;
    private final Map<String, long[]> windowSamples = new HashMap<>();
    private final ConcurrentLinkedQueue<Probe> submitted = new ConcurrentLinkedQueue<>();
    private final List<Probe> outstanding = new ArrayList<>();
    private final List<Long> latenciesMillis = new ArrayList<>();
    private int timedOut;

    public LatencyProbes(long jobWindowMillis, long timeoutMillis) {
        this.jobWindowMillis = jobWindowMillis;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    }

    /** Adds a batch of {@code samples} of execution {@code key} to its window total without probing it. */
    public void count(String key, long windowStartMillis, long samples) {
        add(key, windowStartMillis, samples);
    }

    /** Adds a batch of {@code samples} of execution {@code key} to its window total and probes it. */
    public Probe expect(String key, long windowStartMillis, long samples) {
        long[] window = add(key, windowStartMillis, samples);
        Probe p = new Probe(key, window[0], window[1]);
        submitted.add(p);
        return p;
    }

    private long[] add(String key, long windowStartMillis, long samples) {
        long start = windowStartMillis - Math.floorMod(windowStartMillis, jobWindowMillis);
        long[] w = windowSamples.computeIfAbsent(key, k -> new long[2]);
        if (w[0] != start) {
            w[0] = start;
            w[1] = 0;
        }
        w[1] += samples;
        return w.clone();
    }

    /** Checks every acknowledged outstanding probe once; call from one thread. */
    public void poll(WindowReader reader) {
        for (Probe p = submitted.poll(); p != null; p = submitted.poll()) {
            outstanding.add(p);
        }
        long now = System.nanoTime();
        for (Iterator<Probe> it = outstanding.iterator(); it.hasNext(); ) {
            Probe p = it.next();
            if (p.ackNanos == 0) {
                continue;
            }
            if (readableSamples(reader, p) >= p.expectedSamples) {
                latenciesMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - p.ackNanos));
                it.remove();
            } else if (now - p.ackNanos > timeoutNanos) {
                timedOut++;
                it.remove();
            }
        }
    }

    private static long readableSamples(WindowReader reader, Probe p) {
        long sum = 0;
        for (WindowCounts w : reader.windows(List.of(p.executionKey), p.jobWindowStart, p.jobWindowStart + 1)) {
            if (w.windowStartMillis() == p.jobWindowStart) {
                for (long self : w.counts().self()) {
                    sum += self;
                }
            }
        }
        return sum;
    }

    /** Latencies measured so far, and clears them (the timed-out count too). */
    public Result drain() {
        Result r = new Result(List.copyOf(latenciesMillis), timedOut, outstanding.size() + submitted.size());
        latenciesMillis.clear();
        timedOut = 0;
        return r;
    }

    /** Measured latencies in milliseconds, probes that never became readable, probes still waiting. */
    public record Result(List<Long> latenciesMillis, int timedOut, int stillWaiting) {
        public long percentile(double p) {
            if (latenciesMillis.isEmpty()) {
                return -1;
            }
            List<Long> sorted = new ArrayList<>(latenciesMillis);
            sorted.sort(null);
            int rank = (int) Math.ceil(p / 100.0 * sorted.size());
            return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
        }

        public String summary() {
            return String.format("%d probes: median %.1f s, p99 %.1f s, max %.1f s; %d not readable within the timeout, %d still waiting",
                    latenciesMillis.size(), percentile(50) / 1000.0, percentile(99) / 1000.0, percentile(100) / 1000.0,
                    timedOut, stillWaiting);
        }
    }
}
