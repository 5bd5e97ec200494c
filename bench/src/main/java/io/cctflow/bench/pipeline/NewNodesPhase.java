package io.cctflow.bench.pipeline;

import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Time to ingest {@code nodes} new CCT nodes: synthetic stacks, each {@code depth} frames deep and
 * distinct from its first call site on (the second frame's call-site line is unique per stack), so
 * every stack adds {@code depth - 1} nodes no instance has seen. Frames cycle through
 * {@link #CYCLE} methods, so every node below the first cycle has a recursive parent
 * ({@code depth} 100 gives ~90 % recursive nodes). The stacks are spread over {@code instances}
 * executions and sent as fast as the broker acknowledges; the clock stops when Neo4j holds that many
 * more {@code :CctNode}s than before (count polled every 500 ms).
 */
public final class NewNodesPhase implements Phase {
    static final int CYCLE = 9;
    static final int STACKS_PER_BATCH = 200;

    private final long nodes;
    private final int depth;
    private final int instances;
    private final Duration timeout;

    public NewNodesPhase(long nodes, int depth, int instances, Duration timeout) {
        if (depth < 3) {
            throw new IllegalArgumentException("--node-depth must be at least 3, was " + depth);
        }
        this.nodes = nodes;
        this.depth = depth;
        this.instances = instances;
        this.timeout = timeout;
    }

    @Override
    public String name() {
        return "new nodes";
    }

    @Override
    public void run(EmbeddedPipeline pipeline, PrintStream out) throws Exception {
        long stacks = (nodes + depth - 2) / (depth - 1);
        long expected = stacks * (depth - 1);
        long before = countNodes(pipeline);
        out.printf("%n== new nodes: %,d stacks of depth %d over %d instances = %,d new nodes (%d recursive methods cycling); "
                + "%,d nodes in Neo4j before ==%n", stacks, depth, instances, expected, CYCLE, before);
        List<MethodRef> methods = methods();
        MachineLoad machineStart = MachineLoad.now();
        long start = System.nanoTime();
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        long[] sequences = new long[instances];
        for (long first = 0; first < stacks; first += STACKS_PER_BATCH) {
            int instance = (int) ((first / STACKS_PER_BATCH) % instances);
            long end = System.currentTimeMillis();
            List<Stack> batchStacks = new ArrayList<>();
            for (long s = first; s < Math.min(stacks, first + STACKS_PER_BATCH); s++) {
                batchStacks.add(stack(s));
            }
            InstanceInfo info = FleetBatches.instance("new-nodes", instance, start / 1_000_000);
            acks.add(pipeline.send(SampleBatch.newBuilder().setInstance(info).setWindowStartMillis(end - 10_000)
                    .setWindowEndMillis(end).setSequence(sequences[instance]++).setSamplingPeriodMillis(20)
                    .setMethods(methods).setStacks(batchStacks).setStats(null).build()));
        }
        CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get();
        double sentSeconds = (System.nanoTime() - start) / 1e9;
        out.printf("   all %,d batches acknowledged by Kafka after %.1f s%n", acks.size(), sentSeconds);
        long deadline = start + timeout.toNanos();
        long nextReport = System.nanoTime() + 10_000_000_000L;
        long now = before;
        while (now - before < expected && System.nanoTime() < deadline) {
            Thread.sleep(500);
            now = countNodes(pipeline);
            if (System.nanoTime() >= nextReport) {
                out.printf("   %6.1f s: %,d new nodes in Neo4j%n", (System.nanoTime() - start) / 1e9, now - before);
                nextReport += 10_000_000_000L;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.println("   machine: " + MachineLoad.now().since(machineStart));
        long created = now - before;
        if (created >= expected) {
            out.printf("   => %,d new nodes queryable in Neo4j after %.1f s = %,.0f nodes/s (goal: 1,000,000 in < 60 s)%n",
                    created, seconds, created / seconds);
        } else {
            out.printf("   => timeout of %s: only %,d of %,d new nodes in Neo4j after %.1f s = %,.0f nodes/s"
                            + " (goal: 1,000,000 in < 60 s); the rest is still in the pipeline%n",
                    timeout, created, expected, seconds, created / seconds);
        }
    }

    /** The synthetic methods: a root, a dispatcher, and the cycle. */
    private static List<MethodRef> methods() {
        List<MethodRef> m = new ArrayList<>();
        m.add(new MethodRef("bench.synthetic.Worker", "run", "()V"));
        m.add(new MethodRef("bench.synthetic.Dispatcher", "dispatch", "(J)V"));
        for (int i = 0; i < CYCLE; i++) {
            m.add(new MethodRef("bench.synthetic.Recursive", "step" + i, "(I)I"));
        }
        return m;
    }

    /** Stack {@code s}: root, dispatcher called from line s + 1, then the cycle; one sample on the leaf. */
    private Stack stack(long s) {
        List<Integer> frames = new ArrayList<>(depth);
        List<Integer> lines = new ArrayList<>(depth);
        frames.add(0);
        lines.add(0);
        frames.add(1);
        lines.add((int) (s + 1)); // unique call site: everything below is new
        for (int d = 2; d < depth; d++) {
            frames.add(2 + (d - 2) % CYCLE);
            lines.add(d);
        }
        return new Stack(frames, lines, "worker", false, 1L);
    }

    private static long countNodes(EmbeddedPipeline pipeline) {
        return pipeline.count("MATCH (n:CctNode) RETURN count(n)", Map.of());
    }
}
