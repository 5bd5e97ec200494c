package io.cctflow.flink.window;

import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.graph.write.WindowContribution;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import java.time.Duration;
import org.apache.flink.api.common.functions.MapFunction;

/**
 * Files a batch's counts under its event-time window (the window of {@code window} length its
 * event time falls in) as a contribution the graph adds once ({@link WindowContribution}). No
 * watermark decides whether a batch is too late: a window takes every batch of any age, once.
 */
public class ToContribution implements MapFunction<BatchCounts, WindowContribution> {
    private static final long serialVersionUID = 1L;

    private final long windowMillis;

    public ToContribution(Duration window) {
        this.windowMillis = window.toMillis();
    }

    @Override
    public WindowContribution map(BatchCounts batch) {
        long start = batch.eventTimeMillis - Math.floorMod(batch.eventTimeMillis, windowMillis);
        return new WindowContribution(new WindowCounts(batch.executionKey, start, start + windowMillis,
                batch.counts.toTreeCounts(), new TruncationCounts(batch.truncatedMerged, batch.truncatedPending,
                        batch.truncatedAmbiguous, batch.truncatedExpired)), batch.contributionId);
    }
}
