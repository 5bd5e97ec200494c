package io.cctflow.flink.sink;

import io.cctflow.graph.write.GraphWriter;
import io.cctflow.graph.write.WindowContribution;
import io.cctflow.graph.write.WrittenWindows;
import java.util.List;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

/**
 * Writes a buffer of window contributions ({@link GraphWriter#addContributions(List, WrittenWindows)}),
 * remembering the windows it wrote so that adding the next batch to them needs no read of Neo4j.
 * The job writes each execution's windows from one subtask, so that subtask is their only writer,
 * as the memory requires. Each subtask deserialises its own copy, so the memory is per subtask,
 * needs no locking, and is empty after every (re)start.
 *
 * <p>Metrics per subtask: {@code windowsRead} (windows read from Neo4j before a write),
 * {@code windowsRemembered} (windows added to as remembered, without a read) and the gauge
 * {@code windowsRememberedBytes}. On a steady, busy fleet about one window in six is read (the
 * first batch of its minute, at the agent's 10 s flush); more means {@code windows.recent-mib} is
 * too small for the subtask's executions.
 */
public final class WindowWrite implements GraphWrite<WindowContribution> {
    private static final long serialVersionUID = 1L;

    private final long recentBytes;
    private transient WrittenWindows written;
    private transient Counter read;
    private transient Counter remembered;
    private transient volatile long rememberedBytes;

    /** @param recentBytes bytes of windows remembered as written; 0 reads every window before adding to it */
    public WindowWrite(long recentBytes) {
        if (recentBytes < 0) {
            throw new IllegalArgumentException("recentBytes must be >= 0, got " + recentBytes);
        }
        this.recentBytes = recentBytes;
    }

    @Override
    public void open(MetricGroup metrics) {
        read = metrics.counter("windowsRead");
        remembered = metrics.counter("windowsRemembered");
        metrics.gauge("windowsRememberedBytes", (Gauge<Long>) () -> rememberedBytes);
    }

    @Override
    public void write(GraphWriter writer, List<WindowContribution> contributions) {
        if (read == null) { // not opened by a sink
            open(new UnregisteredMetricsGroup());
        }
        if (written == null) {
            written = new WrittenWindows(recentBytes);
        }
        long found = written.found();
        long missed = written.missed();
        try {
            writer.addContributions(contributions, written);
        } finally {
            remembered.inc(written.found() - found);
            read.inc(written.missed() - missed);
            rememberedBytes = written.bytes();
        }
    }
}
