package io.cctflow.agent.batch;

import io.cctflow.schema.SampleBatch;

/**
 * Where finished batches go.
 *
 * <p>Contract: {@link #send} is called by one flusher thread at a time (and once more from the
 * shutdown hook); it must return quickly (within about 100 ms) and should not throw: a batch
 * that cannot be delivered is counted as dropped by the sink. The sink owns the batch after the
 * call.
 */
public interface BatchSink {
    /** Hands a batch over for delivery. */
    void send(SampleBatch batch);
}
