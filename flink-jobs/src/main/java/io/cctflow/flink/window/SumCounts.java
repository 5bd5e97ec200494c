package io.cctflow.flink.window;

import io.cctflow.flink.cct.BatchCounts;
import org.apache.flink.api.common.functions.AggregateFunction;

/** Sums the counts of the batches in a window: one linear merge per batch ({@link io.cctflow.core.TreeCounts#plus}). */
public class SumCounts implements AggregateFunction<BatchCounts, WindowSum, WindowSum> {
    private static final long serialVersionUID = 1L;

    @Override
    public WindowSum createAccumulator() {
        return new WindowSum();
    }

    @Override
    public WindowSum add(BatchCounts value, WindowSum acc) {
        return acc.plus(value);
    }

    @Override
    public WindowSum getResult(WindowSum acc) {
        return acc;
    }

    @Override
    public WindowSum merge(WindowSum a, WindowSum b) {
        return a.plus(b);
    }
}
