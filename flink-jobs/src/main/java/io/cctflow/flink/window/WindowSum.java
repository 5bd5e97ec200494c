package io.cctflow.flink.window;

import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.cct.CountColumns;
import io.cctflow.model.TruncationCounts;

/**
 * The running sum of a window: its counts and its truncated-sample outcomes. A Flink POJO; adding
 * returns a new sum and never modifies the arrays of this one, so a sum emitted by an early firing
 * stays valid.
 */
public class WindowSum {
    public CountColumns counts = new CountColumns();
    public long truncatedMerged;
    public long truncatedPending;
    public long truncatedAmbiguous;
    public long truncatedExpired;

    public WindowSum() {
    }

    public WindowSum plus(BatchCounts batch) {
        WindowSum sum = new WindowSum();
        sum.counts = counts.plus(batch.counts);
        sum.truncatedMerged = truncatedMerged + batch.truncatedMerged;
        sum.truncatedPending = truncatedPending + batch.truncatedPending;
        sum.truncatedAmbiguous = truncatedAmbiguous + batch.truncatedAmbiguous;
        sum.truncatedExpired = truncatedExpired + batch.truncatedExpired;
        return sum;
    }

    public WindowSum plus(WindowSum other) {
        WindowSum sum = new WindowSum();
        sum.counts = counts.plus(other.counts);
        sum.truncatedMerged = truncatedMerged + other.truncatedMerged;
        sum.truncatedPending = truncatedPending + other.truncatedPending;
        sum.truncatedAmbiguous = truncatedAmbiguous + other.truncatedAmbiguous;
        sum.truncatedExpired = truncatedExpired + other.truncatedExpired;
        return sum;
    }

    public TruncationCounts truncation() {
        return new TruncationCounts(truncatedMerged, truncatedPending, truncatedAmbiguous, truncatedExpired);
    }
}
