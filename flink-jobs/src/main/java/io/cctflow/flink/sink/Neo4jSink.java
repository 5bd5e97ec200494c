package io.cctflow.flink.sink;

import io.cctflow.graph.GraphStoreConfig;
import java.time.Duration;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * Writes stream elements to Neo4j in batches through {@link io.cctflow.graph.write.GraphWriter}.
 *
 * <p>Delivery is at-least-once: buffered elements are written before every checkpoint completes
 * ({@link SinkWriter#flush}), and again after a restore if they were not. Because every
 * {@link GraphWrite} is idempotent (MERGE on ids, SET on counts), at-least-once delivery has
 * exactly-once effect.
 */
public final class Neo4jSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    private final GraphStoreConfig config;
    private final GraphWrite<T> write;
    private final int maxBuffered;
    private final Duration maxDelay;
    private final Neo4jRetry retry;

    /**
     * @param maxBuffered elements buffered before a write
     * @param maxDelay longest an element waits in the buffer
     * @param retry how a write is retried while Neo4j is unavailable, and for how long before the task fails
     */
    public Neo4jSink(GraphStoreConfig config, GraphWrite<T> write, int maxBuffered, Duration maxDelay,
            Neo4jRetry retry) {
        this.config = config;
        this.write = write;
        this.maxBuffered = maxBuffered;
        this.maxDelay = maxDelay;
        this.retry = retry;
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        return new Neo4jSinkWriter<>(config, write, maxBuffered, maxDelay.toMillis(), retry,
                context.getProcessingTimeService(), context.metricGroup());
    }
}
