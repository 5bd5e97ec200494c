package io.cctflow.agent.importer;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.batch.BatchAggregator;
import io.cctflow.agent.batch.BatchSink;
import io.cctflow.agent.batch.MethodId;
import io.cctflow.agent.batch.SampleRecorder;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.SampleBatch;

/**
 * Cuts imported samples into batches by <em>event time</em> (the time in the recording, not
 * the time of the import): windows of {@code windowMillis} aligned to the epoch, so
 * {@code [k * window, (k + 1) * window)}. Set the time with {@link #at} before recording the
 * samples of that instant. Each window is one {@link BatchAggregator}, so imported batches are
 * built exactly like the agent's.
 *
 * <p>Samples may arrive a little out of order: the newest window and the one before it stay
 * open; older ones are sent. A sample for a window already sent opens it again and becomes a
 * further batch of that window (counted by {@link #lateWindows()}), so nothing is lost. A
 * window with more distinct stacks or methods than one batch may hold is split into several
 * batches rather than dropping samples. Every batch gets the next number of
 * {@code sequences}, in the order sent.
 *
 * <p>Not thread-safe: owned by the thread that reads one input.
 */
public final class EventTimeBatcher implements SampleRecorder {
    private final InstanceInfo instance;
    private final int samplingPeriodMillis;
    private final long windowMillis;
    private final AgentCounters counters;
    private final LongSupplier sequences;
    private final BatchSink sink;

    private final TreeMap<Long, BatchAggregator> open = new TreeMap<>();
    private long sentBefore = Long.MIN_VALUE;
    private long currentStart = Long.MIN_VALUE;
    private BatchAggregator current;
    private long batches;
    private long samples;
    private long lateWindows;

    /**
     * @param sequences gives the sequence number of each batch sent, e.g. a counter per execution
     * @param sink receives the finished batches, in the order of their sequence numbers
     */
    public EventTimeBatcher(InstanceInfo instance, int samplingPeriodMillis, long windowMillis,
            AgentCounters counters, LongSupplier sequences, BatchSink sink) {
        if (windowMillis <= 0) {
            throw new IllegalArgumentException("windowMillis must be positive: " + windowMillis);
        }
        this.instance = instance;
        this.samplingPeriodMillis = samplingPeriodMillis;
        this.windowMillis = windowMillis;
        this.counters = counters;
        this.sequences = sequences;
        this.sink = sink;
    }

    /** Sets the event time, epoch milliseconds, of the samples recorded next. */
    public void at(long epochMillis) {
        long start = Math.floorDiv(epochMillis, windowMillis) * windowMillis;
        if (start == currentStart) {
            return;
        }
        currentStart = start;
        // keep the newest window and the one before it open; send the older ones
        long newest = open.isEmpty() ? start : Math.max(open.lastKey(), start);
        while (!open.isEmpty() && open.firstKey() < newest - windowMillis) {
            Map.Entry<Long, BatchAggregator> oldest = open.pollFirstEntry();
            send(oldest.getValue(), oldest.getKey());
        }
        current = open.get(start);
        if (current == null) {
            if (start < sentBefore) {
                lateWindows++; // sent already: this sample starts a further batch of the window
            }
            current = new BatchAggregator(instance, samplingPeriodMillis, start, counters);
            open.put(start, current);
        }
    }

    @Override
    public void record(MethodId[] frames, int[] lines, int depth, String thread, boolean truncated) {
        record(frames, lines, depth, thread, truncated, 1);
    }

    /** Records {@code count} samples of one stack at the current event time. */
    public void record(MethodId[] frames, int[] lines, int depth, String thread, boolean truncated,
            long count) {
        if (current == null) {
            throw new IllegalStateException("at(time) must be called before the first sample");
        }
        if (!current.tryRecord(frames, lines, depth, thread, truncated, count)) {
            // the window's batch is full: send it and continue the window in a new batch
            send(current, currentStart);
            current = new BatchAggregator(instance, samplingPeriodMillis, currentStart, counters);
            open.put(currentStart, current);
            current.tryRecord(frames, lines, depth, thread, truncated, count);
        }
        samples += count;
    }

    /** Sends every open window. The batcher can be used on afterwards. */
    public void finish() {
        while (!open.isEmpty()) {
            Map.Entry<Long, BatchAggregator> oldest = open.pollFirstEntry();
            send(oldest.getValue(), oldest.getKey());
        }
        current = null;
        currentStart = Long.MIN_VALUE;
    }

    /** Batches sent so far. */
    public long batches() {
        return batches;
    }

    /** Samples recorded so far. */
    public long samples() {
        return samples;
    }

    /** How often a sample arrived for a window that had been sent already. */
    public long lateWindows() {
        return lateWindows;
    }

    private void send(BatchAggregator aggregator, long windowStart) {
        sentBefore = Math.max(sentBefore, windowStart + windowMillis);
        SampleBatch batch = aggregator.drain(windowStart + windowMillis);
        if (batch != null) {
            batch.setSequence(sequences.getAsLong());
            batches++;
            sink.send(batch);
        }
    }
}
