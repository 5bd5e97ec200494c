package io.cctflow.flink.sink;

import io.cctflow.graph.write.GraphWriter;
import java.io.Serializable;
import java.util.List;
import org.apache.flink.metrics.MetricGroup;

/** How a buffer of stream elements is written to the graph. Must be idempotent. */
@FunctionalInterface
public interface GraphWrite<T> extends Serializable {
    void write(GraphWriter writer, List<T> elements);

    /** Called once by each sink subtask before its first write, with the subtask's metrics. */
    default void open(MetricGroup metrics) {
    }
}
