package io.cctflow.flink.window;

import io.cctflow.flink.cct.BatchCounts;
import org.apache.flink.api.common.functions.AggregateFunction;

/** Sums the node counts of the batches in a window. */
public class SumCounts implements AggregateFunction<BatchCounts, NodeCountsAccumulator, NodeCountsAccumulator> {
    private static final long serialVersionUID = 1L;

    @Override
    public NodeCountsAccumulator createAccumulator() {
        return new NodeCountsAccumulator();
    }

    @Override
    public NodeCountsAccumulator add(BatchCounts value, NodeCountsAccumulator acc) {
        return acc.add(value);
    }

    @Override
    public NodeCountsAccumulator getResult(NodeCountsAccumulator acc) {
        return acc;
    }

    @Override
    public NodeCountsAccumulator merge(NodeCountsAccumulator a, NodeCountsAccumulator b) {
        return a.add(b.nodeIds, b.self, b.total);
    }
}
