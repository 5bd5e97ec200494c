package io.cctflow.agent.batch;

import java.util.concurrent.atomic.AtomicLong;

import io.cctflow.schema.AgentStats;

/**
 * The agent's own cumulative counters, published with every batch as {@link AgentStats}.
 *
 * <p>Definitions: <em>seen</em> counts every execution sample JFR delivered; <em>truncated</em>
 * those whose stack JFR cut; <em>dropped</em> seen samples that went into no batch (a bound was
 * hit or the event could not be read). A batch is <em>sent</em> when the broker acknowledged it
 * and <em>dropped</em> when it could not be encoded, queued or delivered.
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

    /** Counts a batch the broker acknowledged. */
    public void batchSent(long bytes) {
        batchesSent.incrementAndGet();
        bytesSent.addAndGet(bytes);
    }

    /** Counts a batch that was lost. */
    public void batchDropped() {
        batchesDropped.incrementAndGet();
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
                .build();
    }
}
