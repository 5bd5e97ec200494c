package io.cctflow.query.alerting;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Writes profiles to Neo4j through the graph-store writer, as the samples job would. */
final class StoredProfiles {
    /** Length of the stored windows, the samples job's default. */
    static final long WINDOW_MILLIS = 60_000;

    private final GraphWriter writer;

    StoredProfiles(GraphWriter writer) {
        this.writer = writer;
    }

    /** Method records of {@link Profiles#method} 0..alphabet-1. */
    static List<MethodRecord> methods(int alphabet) {
        List<MethodRecord> out = new ArrayList<>();
        for (int i = 0; i < alphabet; i++) {
            out.add(MethodRecord.of("com.example.M" + i, "run", "()V"));
        }
        return out;
    }

    /** One window of one execution: instance (its span widened to the window), methods, topology, counts. */
    void write(ExecutionId execution, long windowStart, Cct tree, List<MethodRecord> methods) {
        List<NodeRecord> nodes = new ArrayList<>();
        for (int i = 1; i < tree.size(); i++) {
            int rp = tree.recursiveParent(i);
            nodes.add(new NodeRecord(tree.id(i), tree.id(tree.parent(i)), tree.method(i), tree.callSiteLine(i),
                    tree.depth(i), rp < 0 ? NodeRecord.NO_RECURSIVE_PARENT : tree.id(rp)));
        }
        writer.writeInstances(List.of(new InstanceRecord(execution.service(), execution.version(),
                execution.instance(), "host-" + execution.instance(), 1, windowStart, Map.of(), windowStart,
                windowStart + WINDOW_MILLIS - 1)));
        writer.writeMethods(methods);
        writer.writeNodes(nodes);
        writer.writeWindowCounts(List.of(new WindowCounts(execution.key(), windowStart, windowStart + WINDOW_MILLIS,
                TreeCounts.of(tree))));
    }
}
