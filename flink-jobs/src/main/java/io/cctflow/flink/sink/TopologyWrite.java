package io.cctflow.flink.sink;

import io.cctflow.flink.cct.TopologyUpdate;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a buffer of {@link TopologyUpdate}s: instances first, then methods, then nodes, so each
 * write can link to what the previous one wrote.
 *
 * <p>Node ids are path hashes, so every instance of a service creates the same nodes: a fleet of
 * a thousand instances would write each node a thousand times, each time an index seek and a
 * transaction's worth of locks for nothing. Each sink subtask therefore remembers the node and
 * method ids it wrote ({@link RecentIds}, bounded) and writes only the others, once per buffer.
 * Ids are remembered only after the write succeeded, and a restarted subtask starts with an empty
 * memory, so a skipped node is always in the graph: the parent of every node a subtask writes was
 * written before it by the same subtask (the merge function emits parents first, on the same
 * subtask), or is written in the same call, parents first.
 *
 * <p>Each subtask deserialises its own copy, so the memory is per subtask and needs no locking.
 */
public final class TopologyWrite implements GraphWrite<TopologyUpdate> {
    private static final long serialVersionUID = 1L;

    private final int recentIds;
    private transient RecentIds writtenNodes;
    private transient RecentIds writtenMethods;

    /** @param recentIds node ids remembered per generation ({@link RecentIds}); 0 writes every node */
    public TopologyWrite(int recentIds) {
        if (recentIds < 0) {
            throw new IllegalArgumentException("recentIds must be >= 0, got " + recentIds);
        }
        this.recentIds = recentIds;
    }

    @Override
    public void write(GraphWriter writer, List<TopologyUpdate> updates) {
        if (writtenNodes == null) {
            writtenNodes = new RecentIds(recentIds);
            // a service has orders of magnitude fewer methods than nodes
            writtenMethods = new RecentIds(Math.max(recentIds / 8, Math.min(recentIds, 1024)));
        }
        Map<String, InstanceRecord> instances = new LinkedHashMap<>();
        Map<Long, MethodRecord> methods = new LinkedHashMap<>();
        Map<Long, NodeRecord> nodes = new LinkedHashMap<>();
        for (TopologyUpdate u : updates) {
            instances.merge(u.instance.executionId().key(), u.instance, TopologyWrite::span);
            for (MethodRecord m : u.methods) {
                if (!writtenMethods.contains(m.id())) {
                    methods.putIfAbsent(m.id(), m);
                }
            }
            for (NodeRecord n : u.nodes) {
                if (!writtenNodes.contains(n.id())) {
                    nodes.putIfAbsent(n.id(), n);
                }
            }
        }
        writer.writeInstances(List.copyOf(instances.values()));
        writer.writeMethods(List.copyOf(methods.values()));
        writer.writeNodes(new ArrayList<>(nodes.values()));
        methods.keySet().forEach(writtenMethods::add);
        nodes.keySet().forEach(writtenNodes::add);
    }

    private static InstanceRecord span(InstanceRecord a, InstanceRecord b) {
        return new InstanceRecord(a.service(), a.version(), a.instanceId(), a.host(), a.pid(), a.startTimeMillis(),
                a.labels(), Math.min(a.firstSampleMillis(), b.firstSampleMillis()),
                Math.max(a.lastSampleMillis(), b.lastSampleMillis()));
    }
}
