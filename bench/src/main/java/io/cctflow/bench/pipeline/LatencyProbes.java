package io.cctflow.bench.pipeline;

import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import io.cctflow.model.WindowSpan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongPredicate;

/**
 * Batch-to-queryable latency: for a probed batch, the time from the broker's acknowledgement to
 * the moment Neo4j's {@code :Window} of its (execution, job window) holds at least every sample the
 * execution sent into that window up to and including this batch (the sum of the window's self
 * counts: each sample is charged to exactly one leaf). Windows are read with a {@link WindowReader}
 * as stored ({@link WindowReader#asStored}: the self counts, with no topology to expand), all
 * outstanding probes' windows in one read every {@code pollMillis}; that is the resolution of the figure.
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

        WindowSpan window(long jobWindowMillis) {
            return new WindowSpan(executionKey, Resolution.FINE, jobWindowStart, jobWindowStart + jobWindowMillis);
        }
    }

    private final long jobWindowMillis;
    private final long timeoutNanos;
    private final Map<String, long[]> windowSamples = new HashMap<>();
    private final ConcurrentLinkedQueue<Probe> submitted = new ConcurrentLinkedQueue<>();
    private final List<Probe> outstanding = new ArrayList<>();
    /** Per probe done (readable or timed out): its acknowledgement time, and its latency or -1 for timed out. */
    private final List<long[]> done = new ArrayList<>();

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

    /**
     * Checks every acknowledged outstanding probe once, all of them in one read (each probed window
     * once); call from one thread. One read per poll, not one per probe: otherwise the probes' own
     * reads would load Neo4j in proportion to the latency they measure.
     */
    public void poll(WindowReader reader) {
        for (Probe p = submitted.poll(); p != null; p = submitted.poll()) {
            outstanding.add(p);
        }
        Map<WindowSpan, Long> readable = readableSamples(reader, outstanding);
        long now = System.nanoTime();
        for (Iterator<Probe> it = outstanding.iterator(); it.hasNext(); ) {
            Probe p = it.next();
            if (p.ackNanos == 0) {
                continue;
            }
            if (readable.getOrDefault(p.window(jobWindowMillis), 0L) >= p.expectedSamples) {
                done.add(new long[] {p.ackNanos, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - p.ackNanos)});
                it.remove();
            } else if (now - p.ackNanos > timeoutNanos) {
                done.add(new long[] {p.ackNanos, -1});
                it.remove();
            }
        }
    }

    /** The sum of the self counts of each acknowledged probe's window, by window (none when not stored). */
    private Map<WindowSpan, Long> readableSamples(WindowReader reader, List<Probe> probes) {
        Set<WindowSpan> spans = new HashSet<>();
        for (Probe p : probes) {
            if (p.ackNanos != 0) {
                spans.add(p.window(jobWindowMillis));
            }
        }
        Map<WindowSpan, Long> out = new HashMap<>();
        if (spans.isEmpty()) {
            return out;
        }
        for (WindowCounts w : reader.windows(spans)) {
            long sum = 0;
            for (long self : w.counts().self()) {
                sum += self;
            }
            out.put(new WindowSpan(w.executionKey(), Resolution.FINE, w.windowStartMillis(),
                    w.windowStartMillis() + jobWindowMillis), sum);
        }
        return out;
    }

    /** Latencies measured so far, and clears them (the timed-out count too); every probe outstanding is still waiting. */
    public Result drain() {
        return drain(ack -> true, true);
    }

    /**
     * {@link #drain()} of the batches acknowledged at or after {@code nanos} ({@link
     * System#nanoTime}) and of those not acknowledged yet: what a phase that started then measured,
     * without the batches sent before it that were still waiting when it started.
     */
    public Result drainAckedSince(long nanos) {
        return drain(ack -> ack - nanos >= 0, true);
    }

    /** {@link #drain()} of the batches acknowledged before {@code nanos}: those of an earlier phase. */
    public Result drainAckedBefore(long nanos) {
        return drain(ack -> ack - nanos < 0, false);
    }

    private Result drain(LongPredicate ackedWhen, boolean withUnacknowledged) {
        List<Long> latencies = new ArrayList<>();
        int timedOut = 0;
        for (Iterator<long[]> it = done.iterator(); it.hasNext(); ) {
            long[] d = it.next();
            if (ackedWhen.test(d[0])) {
                if (d[1] < 0) {
                    timedOut++;
                } else {
                    latencies.add(d[1]);
                }
                it.remove();
            }
        }
        int waiting = withUnacknowledged ? submitted.size() : 0;
        for (Probe p : outstanding) {
            if (p.ackNanos == 0 ? withUnacknowledged : ackedWhen.test(p.ackNanos)) {
                waiting++;
            }
        }
        return new Result(latencies, timedOut, waiting);
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
