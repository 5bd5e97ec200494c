package io.cctflow.flink.sink;

import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.GraphWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.neo4j.driver.Driver;

/**
 * Buffers elements and writes them when the buffer is full, when the oldest has waited
 * {@code maxDelayMillis}, and before every checkpoint. Runs on the task's mailbox thread only (the
 * timer callback too), so it needs no locking.
 */
final class Neo4jSinkWriter<T> implements SinkWriter<T> {
    private final GraphWrite<T> write;
    private final int maxBuffered;
    private final long maxDelayMillis;
    private final ProcessingTimeService timers;
    private final Driver driver;
    private final GraphWriter writer;
    private final Counter written;
    private final List<T> buffer = new ArrayList<>();
    private boolean timerPending;

    Neo4jSinkWriter(GraphStoreConfig config, GraphWrite<T> write, int maxBuffered, long maxDelayMillis,
            ProcessingTimeService timers, SinkWriterMetricGroup metrics) {
        this.write = write;
        this.maxBuffered = maxBuffered;
        this.maxDelayMillis = maxDelayMillis;
        this.timers = timers;
        this.driver = config.openDriver();
        this.writer = new GraphWriter(driver, config.database());
        this.written = metrics.getNumRecordsSendCounter();
    }

    @Override
    public void write(T element, Context context) {
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
    public void flush(boolean endOfInput) {
        writeBuffer();
    }

    private void writeBuffer() {
        if (buffer.isEmpty()) {
            return;
        }
        // the driver retries transient errors inside each transaction function; anything else
        // fails the task, and the restart replays from the last checkpoint (idempotent writes)
        write.write(writer, buffer);
        written.inc(buffer.size());
        buffer.clear();
    }

    @Override
    public void close() {
        driver.close();
    }
}
