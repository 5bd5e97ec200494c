package io.cctflow.flink.window;

import io.cctflow.model.WindowCounts;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/** Labels a window's summed counts with its execution and bounds. */
public class ToWindowCounts extends ProcessWindowFunction<WindowSum, WindowCounts, String, TimeWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void process(String executionKey, Context context, Iterable<WindowSum> sums, Collector<WindowCounts> out) {
        for (WindowSum sum : sums) {
            // no copy needed: adding to the accumulator builds new arrays, never modifies these
            out.collect(new WindowCounts(executionKey, context.window().getStart(), context.window().getEnd(),
                    sum.counts.toTreeCounts(), sum.truncation()));
        }
    }
}
