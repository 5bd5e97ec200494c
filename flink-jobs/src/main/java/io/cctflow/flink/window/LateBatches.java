package io.cctflow.flink.window;

import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.ingest.DeadLetter;
import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Batches that came after their window's allowed lateness: counted ({@code lateBatches}, {@code
 * lateSamples}) and dead-lettered as a pointer to the original record (its topic, partition, offset
 * and key; the headers say why), so an operator can replay them into a backfill. Their topology was
 * already merged; only their counts are left out.
 */
public class LateBatches extends ProcessFunction<BatchCounts, DeadLetter> {
    private static final long serialVersionUID = 1L;

    private final long windowMillis;
    private final long allowedLatenessMillis;
    private transient Counter lateBatches;
    private transient Counter lateSamples;

    public LateBatches(Duration window, Duration allowedLateness) {
        this.windowMillis = window.toMillis();
        this.allowedLatenessMillis = allowedLateness.toMillis();
    }

    @Override
    public void open(OpenContext openContext) {
        lateBatches = getRuntimeContext().getMetricGroup().counter("lateBatches");
        lateSamples = getRuntimeContext().getMetricGroup().counter("lateSamples");
    }

    @Override
    public void processElement(BatchCounts late, Context ctx, Collector<DeadLetter> out) {
        long samples = late.counts.toTreeCounts().samples();
        lateBatches.inc();
        lateSamples.inc(samples);
        long windowStart = late.eventTimeMillis - Math.floorMod(late.eventTimeMillis, windowMillis);
        out.collect(new DeadLetter(late.source, "late batch: " + samples + " samples at event time "
                + late.eventTimeMillis + " for window [" + windowStart + ", " + (windowStart + windowMillis)
                + ") arrived at watermark " + ctx.timerService().currentWatermark()
                + ", after the allowed lateness of " + allowedLatenessMillis + " ms; its counts were not stored"));
    }
}
