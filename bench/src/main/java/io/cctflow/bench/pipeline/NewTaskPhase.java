package io.cctflow.bench.pipeline;

import io.cctflow.core.MethodId;
import io.cctflow.schema.TaskDefinition;
import io.cctflow.schema.TaskMatchType;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;

/**
 * Time for a new task definition over the nodes {@link NewNodesPhase} created to be queryable: a
 * PREFIX definition on the synthetic dispatcher, which every one of those paths passes right below
 * its root, so all but one node of each path carry the task, published to the task definitions
 * topic as the query service's {@code POST /api/v1/tasks} does. The clock stops when Neo4j holds
 * the task for every dispatcher node: the task roots, from which readers take the subtrees (seed
 * 002 Eq. 3.24; the thesis's relabelling of 810,000 nodes for one new definition took 14 hours).
 * Afterwards the nodes labelled through those roots are counted.
 */
public final class NewTaskPhase implements Phase {
    static final String TASK = "dispatch";
    private static final long DISPATCH = MethodId.of("bench.synthetic.Dispatcher", "dispatch", "(J)V");

    private final Duration timeout;

    public NewTaskPhase(Duration timeout) {
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "new task";
    }

    @Override
    public void run(EmbeddedPipeline pipeline, PrintStream out) throws Exception {
        long roots = count(pipeline, "MATCH (:Method {id: $m})<-[:OF_METHOD]-(n:CctNode) RETURN count(n)", Map.of("m", DISPATCH));
        long nodes = count(pipeline, "MATCH (n:CctNode) RETURN count(n)", Map.of());
        out.printf("%n== new task: a PREFIX definition on bench.synthetic.Dispatcher., %,d dispatcher nodes "
                + "(its task roots) among %,d nodes in Neo4j ==%n", roots, nodes);
        if (roots == 0) {
            out.println("   no dispatcher nodes: run the nodes phase first (--phases nodes,tasks)");
            return;
        }
        MachineLoad machineStart = MachineLoad.now();
        long start = System.nanoTime();
        pipeline.publish(new TaskDefinition("bench-dispatch", FleetBatches.SERVICE, TaskMatchType.PREFIX,
                "bench.synthetic.Dispatcher.", TASK, System.currentTimeMillis())).get();
        long deadline = start + timeout.toNanos();
        long stored = 0;
        long nextReport = System.nanoTime() + 5_000_000_000L;
        while (stored < roots && System.nanoTime() < deadline) {
            Thread.sleep(200);
            stored = storedRoots(pipeline);
            if (System.nanoTime() >= nextReport) {
                out.printf("   %6.1f s: %,d of %,d task roots in Neo4j%n", (System.nanoTime() - start) / 1e9, stored,
                        roots);
                nextReport += 5_000_000_000L;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.println("   machine: " + MachineLoad.now().since(machineStart));
        if (stored < roots) {
            out.printf("   => timeout of %s: only %,d of %,d task roots in Neo4j after %.1f s%n", timeout, stored, roots,
                    seconds);
            return;
        }
        long labelled = count(pipeline, """
                MATCH (t:NodeTasks {service: $s}) WHERE $task IN t.tasks
                MATCH (r:CctNode {id: t.nodeId})-[:CALLS*0..]->(n)
                RETURN count(DISTINCT n)""", Map.of("s", FleetBatches.SERVICE, "task", TASK));
        out.printf("   => new task definition queryable after %.1f s: %,d task roots stored, %,d nodes labelled"
                + " through them (goal: a definition over 1,000,000 nodes in < 10 s)%n", seconds, roots, labelled);
    }

    private static long storedRoots(EmbeddedPipeline pipeline) {
        return count(pipeline, "MATCH (t:NodeTasks {service: $s}) WHERE $task IN t.tasks RETURN count(t)",
                Map.of("s", FleetBatches.SERVICE, "task", TASK));
    }

    private static long count(EmbeddedPipeline pipeline, String query, Map<String, Object> params) {
        return pipeline.count(query, params);
    }
}
