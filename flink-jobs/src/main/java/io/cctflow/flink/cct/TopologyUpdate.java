package io.cctflow.flink.cct;

import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;

/**
 * What one batch added to the stored graph: its instance (with the span it covers), and the
 * methods and nodes its instance had not seen before, parents before children. A Flink POJO.
 */
public class TopologyUpdate {
    public InstanceRecord instance;
    public MethodRecord[] methods;
    public NodeRecord[] nodes;

    public TopologyUpdate() {
    }

    public TopologyUpdate(InstanceRecord instance, MethodRecord[] methods, NodeRecord[] nodes) {
        this.instance = instance;
        this.methods = methods;
        this.nodes = nodes;
    }
}
