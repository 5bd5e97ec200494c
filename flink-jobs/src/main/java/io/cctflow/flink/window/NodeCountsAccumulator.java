package io.cctflow.flink.window;

import io.cctflow.flink.cct.BatchCounts;

/**
 * Running sum of node counts in a window: parallel arrays sorted by node id, so adding a batch is
 * one linear merge and the state is plain arrays (a Flink POJO, no generic serializer).
 */
public class NodeCountsAccumulator {
    public long[] nodeIds = new long[0];
    public long[] self = new long[0];
    public long[] total = new long[0];

    /** Adds sorted counts; returns this. */
    public NodeCountsAccumulator add(long[] ids, long[] addSelf, long[] addTotal) {
        int n = nodeIds.length;
        int m = ids.length;
        long[] outIds = new long[n + m];
        long[] outSelf = new long[n + m];
        long[] outTotal = new long[n + m];
        int i = 0;
        int j = 0;
        int k = 0;
        while (i < n || j < m) {
            if (j == m || (i < n && nodeIds[i] < ids[j])) {
                outIds[k] = nodeIds[i];
                outSelf[k] = self[i];
                outTotal[k++] = total[i++];
            } else if (i == n || ids[j] < nodeIds[i]) {
                outIds[k] = ids[j];
                outSelf[k] = addSelf[j];
                outTotal[k++] = addTotal[j++];
            } else {
                outIds[k] = nodeIds[i];
                outSelf[k] = self[i++] + addSelf[j];
                outTotal[k++] = total[i - 1] + addTotal[j++];
            }
        }
        nodeIds = java.util.Arrays.copyOf(outIds, k);
        self = java.util.Arrays.copyOf(outSelf, k);
        total = java.util.Arrays.copyOf(outTotal, k);
        return this;
    }

    public NodeCountsAccumulator add(BatchCounts counts) {
        return add(counts.nodeIds, counts.self, counts.total);
    }
}
