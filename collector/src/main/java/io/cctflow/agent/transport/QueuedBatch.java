package io.cctflow.agent.transport;

import java.nio.file.Path;

/**
 * One encoded batch waiting in the {@link SendQueue}: in memory, in a spill file, or both (a
 * spilled batch read back for sending).
 *
 * <p>Thread safety: the mutable fields are guarded by the owning queue's lock.
 */
final class QueuedBatch {
    final long sequence;
    /** Encoded size in bytes. */
    final long size;
    /** When it was handed to the queue (or found on disk at start), on the queue's nano clock. */
    final long queuedNanos;
    /** The run that encoded it: part of its spill file name. */
    final long runId;
    /** The payload; null while it lives only in its spill file. */
    byte[] bytes;
    /** Its spill file, or null. */
    Path file;
    /** The sender is handing it to the producer right now. */
    boolean sending;
    /** The producer accepted it once: it may be with the broker, so it is never dropped for room. */
    boolean accepted;

    QueuedBatch(long sequence, long size, long queuedNanos, long runId, byte[] bytes, Path file) {
        this.sequence = sequence;
        this.size = size;
        this.queuedNanos = queuedNanos;
        this.runId = runId;
        this.bytes = bytes;
        this.file = file;
    }

    @Override
    public String toString() {
        return "batch " + sequence + " (" + size + " bytes)";
    }
}
