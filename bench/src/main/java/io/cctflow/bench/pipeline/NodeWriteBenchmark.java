package io.cctflow.bench.pipeline;

import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.servers.Neo4jServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.neo4j.driver.Driver;

/**
 * {@link GraphWriter#writeNodes} alone against embedded Neo4j, to see whether the graph writer is
 * what limits the pipeline's node ingest: writes {@code nodes} new nodes (synthetic deep paths, as
 * {@link NewNodesPhase} creates) in calls of {@code perCall} nodes, then writes the same nodes again
 * (what every new instance of a fleet does for nodes other instances already created). Prints
 * nodes per second for both. Run it under JFR to see where the time goes.
 *
 * <pre>java ... io.cctflow.bench.pipeline.NodeWriteBenchmark [nodes=200000] [perCall=20000]</pre>
 */
public final class NodeWriteBenchmark {
    private NodeWriteBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int perCall = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        Path dir = Files.createTempDirectory("cctflow-node-write-");
        try (Neo4jServer neo4j = Neo4jServer.start(dir.resolve("neo4j"));
                Driver driver = GraphStoreConfig.unauthenticated(neo4j.boltUri()).openDriver()) {
            GraphSchema.ensure(driver, "");
            GraphWriter writer = new GraphWriter(driver, "");
            List<MethodRecord> methods = new ArrayList<>();
            for (int i = 0; i < NewNodesPhase.CYCLE + 2; i++) {
                methods.add(MethodRecord.of("bench.synthetic.M", "m" + i, "()V"));
            }
            writer.writeMethods(methods);
            List<NodeRecord> all = nodes(nodes, methods);
            for (String pass : List.of("new", "existing")) {
                MachineLoad machine = MachineLoad.now();
                long start = System.nanoTime();
                for (int from = 0; from < all.size(); from += perCall) {
                    writer.writeNodes(all.subList(from, Math.min(all.size(), from + perCall)));
                }
                double s = (System.nanoTime() - start) / 1e9;
                System.out.printf("%s nodes: %,d in %.1f s = %,.0f nodes/s; %s%n", pass, all.size(), s, all.size() / s,
                        MachineLoad.now().since(machine));
            }
        }
        System.exit(0);
    }

    /** Paths of depth 100 below one root, each distinct from its first call site, methods cycling. */
    private static List<NodeRecord> nodes(int count, List<MethodRecord> methods) {
        List<NodeRecord> out = new ArrayList<>(count);
        long nextId = 1;
        for (int path = 0; out.size() < count; path++) {
            long parent = 0;
            long[] lastOfMethod = new long[methods.size()];
            for (int d = 1; d < 100 && out.size() < count; d++) {
                int m = d == 1 ? 1 : 2 + (d - 2) % NewNodesPhase.CYCLE;
                long id = nextId++ * 0x9E3779B97F4A7C15L;
                out.add(new NodeRecord(id, parent, methods.get(m).id(), d == 1 ? path + 1 : d, d, lastOfMethod[m]));
                lastOfMethod[m] = id;
                parent = id;
            }
        }
        return out;
    }
}
