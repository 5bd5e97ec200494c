package io.cctflow.agent.batch;

import java.util.concurrent.atomic.AtomicLong;

import io.cctflow.schema.AgentStats;

/**
 * The agent's own cumulative counters, published with every batch as {@link AgentStats}.
 *
 * <p>Definitions: <em>seen</em> counts every execution sample JFR delivered; <em>truncated</em>
 * those whose stack JFR cut; <em>dropped</em> seen samples that went into no batch (a bound was
 * hit or the event could not be read). A batch is <em>sent</em> when the broker acknowledged it
 * and <em>dropped</em> when it could not be encoded, was pushed out of a full send queue or spill
 * directory, could not be read back from a spill file, or was refused by the broker for good.
 * <em>Send latency</em> is the time from hand-over to the send queue to the acknowledgement. The
 * queue gauges ({@code batchesQueued}, {@code bytesQueued}) are current values, not totals.
 *
 * <p>Thread safety: all methods may be called from any thread (sampler, flusher, Kafka I/O).
 */
public final class AgentCounters {
    private final AtomicLong samplesSeen = new AtomicLong();
    private final AtomicLong samplesTruncated = new AtomicLong();
    private final AtomicLong samplesDropped = new AtomicLong();
    private final AtomicLong batchesSent = new AtomicLong();
    private final AtomicLong batchesDropped = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong bytesDropped = new AtomicLong();
    private final AtomicLong sendLatencyMillisSum = new AtomicLong();
    private final AtomicLong sendLatencyMillisMax = new AtomicLong();
    private final AtomicLong batchesQueued = new AtomicLong();
    private final AtomicLong bytesQueued = new AtomicLong();

    /** Counts a sample JFR delivered. */
    public void sampleSeen(boolean truncated) {
        samplesSeen.incrementAndGet();
        if (truncated) {
            samplesTruncated.incrementAndGet();
        }
    }

    /** Counts {@code n} samples of one stack delivered at once (an import's stack with a count). */
    public void samplesSeen(long n, boolean truncated) {
        samplesSeen.addAndGet(n);
        if (truncated) {
            samplesTruncated.addAndGet(n);
        }
    }

    /** Counts a seen sample that went into no batch. */
    public void sampleDropped() {
        samplesDropped.incrementAndGet();
    }

    /** Counts {@code n} seen samples that went into no batch. */
    public void samplesDropped(long n) {
        samplesDropped.addAndGet(n);
    }

    /** Counts a sample whose event could not be read: seen and dropped at once. */
    public void sampleUnreadable() {
        samplesSeen.incrementAndGet();
        samplesDropped.incrementAndGet();
    }

    /** Counts a batch the broker acknowledged {@code latencyMillis} after it was queued. */
    public void batchSent(long bytes, long latencyMillis) {
        batchesSent.incrementAndGet();
        bytesSent.addAndGet(bytes);
        sendLatencyMillisSum.addAndGet(latencyMillis);
        sendLatencyMillisMax.accumulateAndGet(latencyMillis, Math::max);
    }

    /** Counts a batch that was lost; {@code bytes} is its encoded size, 0 if it was never encoded. */
    public void batchDropped(long bytes) {
        batchesDropped.incrementAndGet();
        bytesDropped.addAndGet(bytes);
    }

    /** Sets the queue gauges: batches and their bytes waiting to be sent now. */
    public void queued(long batches, long bytes) {
        batchesQueued.set(batches);
        bytesQueued.set(bytes);
    }

    /** The current values. Each counter is read atomically, the set of them is not. */
    public AgentStats snapshot() {
        return AgentStats.newBuilder()
                .setSamplesSeen(samplesSeen.get())
                .setSamplesTruncated(samplesTruncated.get())
                .setSamplesDropped(samplesDropped.get())
                .setBatchesSent(batchesSent.get())
                .setBatchesDropped(batchesDropped.get())
                .setBytesSent(bytesSent.get())
                .setBytesDropped(bytesDropped.get())
                .setSendLatencyMillisSum(sendLatencyMillisSum.get())
                .setSendLatencyMillisMax(sendLatencyMillisMax.get())
                .setBatchesQueued(batchesQueued.get())
                .setBytesQueued(bytesQueued.get())
                .build();
    }
}
