package io.cctflow.bench.rollup;

import io.cctflow.bench.pipeline.ProcFs;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.graph.write.WindowContribution;
import io.cctflow.graph.write.WrittenWindows;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.List;

/**
 * The samples job's window writes for a busy fleet, without the job: what its Neo4j sink calls
 * ({@link GraphWriter#addContributions}, {@value #SINK_BATCH} contributions per call as the job's
 * sink batches them) for {@code minutes} one-minute windows of every instance, each window built
 * from {@code batchesPerMinute} contributions (the agent's batches: 6 at its default 10 s flush),
 * each a draw of {@code 6,000 / batchesPerMinute} corpus samples. Every contribution rewrites its
 * window; it reads it first unless the writer's {@link WrittenWindows} holds it, as in the job's
 * sink subtasks. Reports this JVM's and Neo4j's CPU per contribution and per sample: the share of
 * issue 31's 8 µs per sample that the window writes take.
 *
 * <p>Not thread-safe.
 */
final class ContributionWrites {
    /** The job's {@code Neo4jSink} batch (SamplesJob). */
    static final int SINK_BATCH = 200;

    private ContributionWrites() {
    }

    /**
     * Writes and times them; windows start at {@code from}. Minute-major, as the job's sink sees them
     * (every instance's batch of a flush before the next flush).
     */
    static String measure(BusyFleet batches, GraphWriter writer, WrittenWindows memory, int instances, int minutes,
            int batchesPerMinute, long from, long neo4jPid) {
        long cpu0 = RollupBenchmark.cpuNanos();
        long neo0 = ProcFs.cpuNanos(neo4jPid);
        long t0 = System.nanoTime();
        long samples = 0;
        long contributions = 0;
        long id = 1;
        List<WindowContribution> pending = new ArrayList<>(SINK_BATCH);
        for (int m = 0; m < minutes; m++) {
            long start = from + m * BusyFleet.MINUTE_MILLIS;
            for (int b = 0; b < batchesPerMinute; b++) {
                for (int k = 0; k < instances; k++) {
                    WindowCounts part = new WindowCounts(BusyFleet.executionKey(k), start,
                            start + BusyFleet.MINUTE_MILLIS, batches.poolWindow(batches.poolIndex(k, b, m)));
                    pending.add(new WindowContribution(part, id++));
                    samples += part.counts().samples();
                    if (pending.size() == SINK_BATCH) {
                        writer.addContributions(pending, memory);
                        contributions += pending.size();
                        pending.clear();
                    }
                }
            }
        }
        writer.addContributions(pending, memory);
        contributions += pending.size();
        double wall = (System.nanoTime() - t0) / 1e9;
        double jvm = (RollupBenchmark.cpuNanos() - cpu0) / 1e3;
        double neo = (ProcFs.cpuNanos(neo4jPid) - neo0) / 1e3;
        return String.format("job's window writes (GraphWriter.addContributions, %d per call, windows remembered: %s):"
                        + " %,d contributions of %,d samples (%d instances x %d minutes x %d batches) in %.1f s; this JVM"
                        + " %.0f + Neo4j %.0f CPU-µs per contribution, %.3f + %.3f = %.3f CPU-µs per sample", SINK_BATCH,
                memory.size() == 0 ? "none" : String.format("%,d, %.1f MiB", memory.size(), memory.bytes() / 1048576.0),
                contributions, samples, instances, minutes, batchesPerMinute, wall, jvm / contributions, neo / contributions,
                jvm / samples, neo / samples, (jvm + neo) / samples);
    }
}
