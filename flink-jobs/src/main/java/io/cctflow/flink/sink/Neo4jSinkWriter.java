package io.cctflow.flink.sink;

import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.write.GraphWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.neo4j.driver.Driver;
import org.neo4j.driver.exceptions.ServiceUnavailableException;
import org.neo4j.driver.exceptions.SessionExpiredException;
import org.neo4j.driver.exceptions.TransientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Buffers elements and writes them when the buffer is full, when the oldest has waited
 * {@code maxDelayMillis}, and before every checkpoint. Runs on the task's mailbox thread only (the
 * timer callback too), so it needs no locking.
 *
 * <p>While Neo4j is unavailable (connection refused, session expired, transient errors) a write is
 * retried with jittered exponential backoff ({@link Neo4jRetry}) for up to its budget, blocking the task:
 * backpressure, so the job stops reading instead of piling up data, and no checkpoint completes
 * with unwritten elements. Each retry is counted ({@code neo4jRetries}) and logged at most once a
 * minute. When the budget is used up, or on any other error, the task fails and Flink restarts it
 * from the last checkpoint; writes are idempotent, so the replay writes the same numbers.
 */
final class Neo4jSinkWriter<T> implements SinkWriter<T> {
    private static final Logger LOG = LoggerFactory.getLogger(Neo4jSinkWriter.class);

    private final GraphWrite<T> write;
    private final int maxBuffered;
    private final long maxDelayMillis;
    private final ProcessingTimeService timers;
    private final Driver driver;
    private final GraphWriter writer;
    private final Counter written;
    private final Counter retries;
    private final Backoff backoff;
    private final List<T> buffer = new ArrayList<>();
    private boolean timerPending;
    private long lastWarningMillis;

    Neo4jSinkWriter(GraphStoreConfig config, GraphWrite<T> write, int maxBuffered, long maxDelayMillis,
            Neo4jRetry retry, ProcessingTimeService timers, SinkWriterMetricGroup metrics) {
        this.write = write;
        this.maxBuffered = maxBuffered;
        this.maxDelayMillis = maxDelayMillis;
        this.timers = timers;
        this.driver = config.openDriver(retry.transactionTime());
        this.writer = new GraphWriter(driver, config.database());
        this.written = metrics.getNumRecordsSendCounter();
        this.retries = metrics.counter("neo4jRetries");
        this.backoff = new Backoff(Neo4jRetry.FIRST_DELAY, retry.maxDelay(), retry.budget(), new Random());
        write.open(metrics);
    }

    @Override
    public void write(T element, Context context) throws InterruptedException {
        buffer.add(element);
        if (buffer.size() >= maxBuffered) {
            writeBuffer();
        } else if (!timerPending) {
            timerPending = true;
            timers.registerTimer(timers.getCurrentProcessingTime() + maxDelayMillis, t -> {
                timerPending = false;
                writeBuffer();
            });
        }
    }

    @Override
    public void flush(boolean endOfInput) throws InterruptedException {
        writeBuffer();
    }

    private void writeBuffer() throws InterruptedException {
        if (buffer.isEmpty()) {
            return;
        }
        while (true) {
            try {
                write.write(writer, buffer);
                break;
            } catch (ServiceUnavailableException | SessionExpiredException | TransientException e) {
                long delay = backoff.nextDelayMillis();
                if (delay < 0) {
                    throw new IllegalStateException("Neo4j unavailable for " + backoff.waitedMillis()
                            + " ms, the retry budget; failing so the job restarts from its last checkpoint", e);
                }
                retries.inc();
                warnAtMostOncePerMinute("Neo4j unavailable (" + e.getMessage() + "); retrying " + buffer.size()
                        + " elements in " + delay + " ms, job backpressured");
                Thread.sleep(delay); // backoff: blocking the task is the backpressure
            }
        }
        backoff.reset();
        written.inc(buffer.size());
        buffer.clear();
    }

    private void warnAtMostOncePerMinute(String message) {
        long now = System.currentTimeMillis();
        if (now - lastWarningMillis >= 60_000) {
            lastWarningMillis = now;
            LOG.warn(message);
        }
    }

    @Override
    public void close() {
        driver.close();
    }
}
