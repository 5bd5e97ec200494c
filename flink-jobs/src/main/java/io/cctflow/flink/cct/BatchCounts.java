package io.cctflow.flink.cct;

import io.cctflow.flink.ingest.RawRecord;

/**
 * The counts of one sample batch as the graph stores a window's ({@code TreeCounts.selfRowsOf}: the
 * rows of the nodes and (node, thread) pairs with a self count, the root's total, no per-method
 * rows), ready to be added to a window. A Flink POJO; the arrays are owned by the record.
 */
public class BatchCounts {
    public String executionKey;
    /** Event time of the batch: the start of its sampling window, epoch milliseconds. */
    public long eventTimeMillis;
    public CountColumns counts;
    /** Where the batch came from: topic, partition, offset and key of its record, without the value. */
    public RawRecord source;
    /**
     * What the counts are named by in their window ({@link ContributionIds}): the batch, or the
     * truncated stack of a batch whose outcome they change; the graph adds each id once.
     */
    public long contributionId;
    /**
     * Changes to the window's truncated-sample outcomes (see {@code TruncationCounts}): a batch adds
     * its own; a later merge or expiry of a pending stack moves samples out of {@code pending}.
     */
    public long truncatedMerged;
    public long truncatedPending;
    public long truncatedAmbiguous;
    public long truncatedExpired;

    public BatchCounts() {
    }

    public BatchCounts(String executionKey, long eventTimeMillis, CountColumns counts, RawRecord source) {
        this.executionKey = executionKey;
        this.eventTimeMillis = eventTimeMillis;
        this.counts = counts;
        this.source = source;
    }
}
