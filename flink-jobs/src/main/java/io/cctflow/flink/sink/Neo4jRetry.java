package io.cctflow.flink.sink;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link Neo4jSink} retries a write while Neo4j is unavailable. Each try is one managed
 * transaction of the driver, which the driver itself retries for up to {@code transactionTime}
 * (its own backoff: 1 s, doubling); between tries the sink waits a jittered exponential backoff
 * from 200 ms up to {@code maxDelay}, and fails the task once its waits add up to {@code budget}.
 *
 * @param budget how long the sink's waits may add up to before the task fails
 * @param maxDelay the longest single wait between two tries
 * @param transactionTime how long the driver retries one try's transaction before the sink sees the error
 */
public record Neo4jRetry(Duration budget, Duration maxDelay, Duration transactionTime) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The sink's first wait; later waits double, up to {@link #maxDelay}. */
    public static final Duration FIRST_DELAY = Duration.ofMillis(200);

    public Neo4jRetry {
        Objects.requireNonNull(budget, "budget");
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(transactionTime, "transactionTime");
    }
}
