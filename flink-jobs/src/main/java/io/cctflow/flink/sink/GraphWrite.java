package io.cctflow.flink.sink;

import io.cctflow.graph.write.GraphWriter;
import java.io.Serializable;
import java.util.List;

/** How a buffer of stream elements is written to the graph. Must be idempotent. */
@FunctionalInterface
public interface GraphWrite<T> extends Serializable {
    void write(GraphWriter writer, List<T> elements);
}
