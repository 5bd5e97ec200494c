package io.cctflow.bench.pipeline;

import java.util.concurrent.CompletableFuture;

/**
 * Where a simulated fleet's batches go: the embedded pipeline's broker, or a separate cluster's
 * brokers ({@link ClusterUnderTest}).
 */
@FunctionalInterface
public interface BatchTarget {
    /** Publishes one encoded batch under its execution key, as the agent does; completes on the broker's ack. */
    CompletableFuture<Void> sendSamples(String executionKey, byte[] encodedBatch);
}
