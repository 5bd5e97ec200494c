package io.cctflow.flink.window;

import io.cctflow.flink.cct.BatchCounts;
import io.cctflow.flink.cct.CountColumns;
import org.apache.flink.api.common.functions.AggregateFunction;

/** Sums the counts of the batches in a window: one linear merge per batch ({@link io.cctflow.core.TreeCounts#plus}). */
public class SumCounts implements AggregateFunction<BatchCounts, CountColumns, CountColumns> {
    private static final long serialVersionUID = 1L;

    @Override
    public CountColumns createAccumulator() {
        return new CountColumns();
    }

    @Override
    public CountColumns add(BatchCounts value, CountColumns acc) {
        return acc.plus(value.counts);
    }

    @Override
    public CountColumns getResult(CountColumns acc) {
        return acc;
    }

    @Override
    public CountColumns merge(CountColumns a, CountColumns b) {
        return a.plus(b);
    }
}
