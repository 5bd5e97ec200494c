package io.cctflow.flink.cct;

/**
 * Node counts of one sample batch, sorted by node id, ready to be summed into a window. A Flink
 * POJO; the arrays are owned by the record.
 */
public class BatchCounts {
    public String executionKey;
    /** Event time of the batch: the start of its sampling window, epoch milliseconds. */
    public long eventTimeMillis;
    public long[] nodeIds;
    public long[] self;
    public long[] total;

    public BatchCounts() {
    }

    public BatchCounts(String executionKey, long eventTimeMillis, long[] nodeIds, long[] self, long[] total) {
        this.executionKey = executionKey;
        this.eventTimeMillis = eventTimeMillis;
        this.nodeIds = nodeIds;
        this.self = self;
        this.total = total;
    }
}
