package io.cctflow.flink.sink;

import io.cctflow.graph.write.GraphWriter;
import io.cctflow.graph.write.WindowContribution;
import io.cctflow.graph.write.WrittenWindows;
import java.util.List;

/**
 * Writes a buffer of window contributions ({@link GraphWriter#addContributions(List, WrittenWindows)}),
 * remembering the windows it wrote so that adding the next batch to them needs no read of Neo4j.
 * The job writes each execution's windows from one subtask, so that subtask is their only writer,
 * as the memory requires. Each subtask deserialises its own copy, so the memory is per subtask,
 * needs no locking, and is empty after every (re)start.
 */
public final class WindowWrite implements GraphWrite<WindowContribution> {
    private static final long serialVersionUID = 1L;

    private final long recentBytes;
    private transient WrittenWindows written;

    /** @param recentBytes bytes of windows remembered as written; 0 reads every window before adding to it */
    public WindowWrite(long recentBytes) {
        if (recentBytes < 0) {
            throw new IllegalArgumentException("recentBytes must be >= 0, got " + recentBytes);
        }
        this.recentBytes = recentBytes;
    }

    @Override
    public void write(GraphWriter writer, List<WindowContribution> contributions) {
        if (written == null) {
            written = new WrittenWindows(recentBytes);
        }
        writer.addContributions(contributions, written);
    }
}
