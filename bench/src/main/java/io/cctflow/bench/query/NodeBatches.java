package io.cctflow.bench.query;

import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.NodeRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Writes topology in slices with a progress line per slice (new nodes cost about a millisecond each). */
final class NodeBatches {
    private static final int SLICE = 20_000;

    private NodeBatches() {
    }

    /** Writes {@code nodes} parents first (each slice links to the slices before it). */
    static void write(GraphWriter writer, List<NodeRecord> nodes, String label) {
        List<NodeRecord> sorted = new ArrayList<>(nodes);
        sorted.sort(Comparator.comparingInt(NodeRecord::depth));
        long start = System.nanoTime();
        for (int from = 0; from < sorted.size(); from += SLICE) {
            int to = Math.min(sorted.size(), from + SLICE);
            writer.writeNodes(sorted.subList(from, to));
            double s = (System.nanoTime() - start) / 1e9;
            System.out.printf("%s: %,d / %,d nodes, %.0f nodes/s%n", label, to, sorted.size(), to / s);
        }
    }
}
