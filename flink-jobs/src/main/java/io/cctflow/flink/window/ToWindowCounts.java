package io.cctflow.flink.window;

import io.cctflow.graph.model.WindowCounts;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/** Labels a window's summed counts with its execution and bounds. */
public class ToWindowCounts
        extends ProcessWindowFunction<NodeCountsAccumulator, WindowCounts, String, TimeWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void process(String executionKey, Context context, Iterable<NodeCountsAccumulator> sums,
            Collector<WindowCounts> out) {
        for (NodeCountsAccumulator sum : sums) {
            // copies: the accumulator stays in window state and may be added to after an early firing
            out.collect(new WindowCounts(executionKey, context.window().getStart(), context.window().getEnd(),
                    sum.nodeIds.clone(), sum.self.clone(), sum.total.clone()));
        }
    }
}
