package io.cctflow.bench.query;

import io.cctflow.core.ExecutionId;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.Resolution;
import io.cctflow.graph.maintenance.Rollups;
import org.neo4j.driver.Driver;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.WindowCounts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Writes the fleet dataset: {@code instances} instances, split evenly over {@code deployments}
 * versions, recording for {@link QueryBenchOptions#spanHours()} hours, one fine window per instance
 * per {@code window}, each holding {@code samplesPerWindow} stacks drawn from the corpus in
 * proportion to how often they were recorded ({@link WindowDraws}), through {@link GraphWriter} as
 * the samples job writes them (topology once, then counts per (instance, window)); then the graph
 * store's own roll-up pass ({@link Rollups}) makes the ten-minute, hourly and daily windows, one
 * day at a time. Prints progress on stdout.
 *
 * <p>Not thread-safe; one build at a time.
 */
final class FleetDataset {
    static final String SERVICE = "maven-fleet";
    static final String VERSION = "3.8.7";
    /** The query service's default {@code rollup.settle}. */
    static final Duration SETTLE = Duration.ofMinutes(10);
    /** Windows in one write call (and one generated batch), in order of time, then instance. */
    private static final int WINDOWS_PER_WRITE = 100;
    private static final long PROGRESS_NANOS = 15_000_000_000L;

    /** What the build wrote. */
    record Result(long fromMillis, long toMillis, long fineWindows, long rollupWindows, int topologyNodes,
            double meanWindowNodes, double windowWriteSeconds, double rollupSeconds) {
    }

    private final CorpusStacks stacks;
    private final GraphWriter writer;
    private final Driver driver;
    private final QueryBenchOptions options;
    private final Random random;

    FleetDataset(CorpusStacks stacks, GraphWriter writer, Driver driver, QueryBenchOptions options) {
        this.stacks = stacks;
        this.writer = writer;
        this.driver = driver;
        this.options = options;
        this.random = new Random(options.seed());
    }

    static String instanceId(int k) {
        return String.format("maven-%02d", k);
    }

    /** The version of deployment {@code d} (of {@code 0 .. deployments - 1}). */
    static String version(int d) {
        return d == 0 ? VERSION : VERSION + "-d" + d;
    }

    /** The deployment instance {@code k} of {@code instances} belongs to: consecutive blocks, evenly. */
    static int deploymentOf(int k, int instances, int deployments) {
        return (int) ((long) k * deployments / instances);
    }

    private String versionOf(int k) {
        return version(deploymentOf(k, options.instances(), options.deployments()));
    }

    /** Builds the dataset ending at {@code toMillis} (a UTC midnight). */
    Result build(long toMillis) throws InterruptedException {
        long window = options.window().toMillis();
        long from = toMillis - options.spanHours() * Resolution.HOUR.millis();
        int topology = writeTopology();
        List<InstanceRecord> instances = new ArrayList<>();
        for (int k = 0; k < options.instances(); k++) {
            instances.add(new InstanceRecord(SERVICE, versionOf(k), instanceId(k), "host-" + k, 1000 + k, from,
                    Map.of("zone", k % 2 == 0 ? "a" : "b"), from, toMillis - 1));
        }
        writer.writeInstances(instances);

        long perInstance = (toMillis - from) / window;
        long total = perInstance * options.instances();
        long batches = (total + WINDOWS_PER_WRITE - 1) / WINDOWS_PER_WRITE;
        System.out.printf("fleet: %d instances in %d deployment(s) x %d h = %,d fine windows of %d s, %d samples"
                        + " each; writing%n", options.instances(), options.deployments(), options.spanHours(), total,
                window / 1000, options.samplesPerWindow());
        ExecutorService generator = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "query-bench-generator");
            t.setDaemon(true);
            return t;
        });
        long written = 0;
        long nodeEntries = 0;
        long start = System.nanoTime();
        long lastProgress = start;
        try {
            WindowDraws draws = new WindowDraws(stacks);
            Future<List<WindowCounts>> next = generator.submit(() -> generate(draws, from, 0, total));
            for (long b = 0; b < batches; b++) {
                List<WindowCounts> batch = next.get();
                if (b + 1 < batches) {
                    long nb = b + 1;
                    next = generator.submit(() -> generate(draws, from, nb, total));
                }
                writer.writeWindowCounts(batch);
                written += batch.size();
                for (WindowCounts w : batch) {
                    nodeEntries += w.counts().nodeIds().length;
                }
                long now = System.nanoTime();
                if (now - lastProgress > PROGRESS_NANOS || b + 1 == batches) {
                    lastProgress = now;
                    double s = (now - start) / 1e9;
                    System.out.printf("  fine windows %,d / %,d (%.0f %%), %.0f windows/s, %,.0f stored rows per window,"
                                    + " %.0f s so far, about %.0f s to go%n", written, total, 100.0 * written / total,
                            written / s, (double) nodeEntries / written, s, (total - written) / (written / s));
                }
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("generating windows failed: " + e.getCause(), e.getCause());
        } finally {
            generator.shutdownNow();
        }
        double writeSeconds = (System.nanoTime() - start) / 1e9;

        long rollupStart = System.nanoTime();
        long rolled = rollUp(driver, from, toMillis);
        return new Result(from, toMillis, written, rolled, topology, (double) nodeEntries / written, writeSeconds,
                (System.nanoTime() - rollupStart) / 1e9);
    }

    /**
     * The graph store's roll-up pass over [from, toMillis), one pass per day from the oldest, as the
     * query service would have run it once each day had settled; returns the windows written.
     */
    static long rollUp(Driver driver, long from, long toMillis) {
        Rollups rollups = new Rollups(driver, "", SETTLE);
        long rolled = 0;
        int days = (int) ((toMillis - from + Resolution.DAY.millis() - 1) / Resolution.DAY.millis());
        for (int d = days - 1; d >= 0; d--) {
            long dayEnd = toMillis - d * Resolution.DAY.millis();
            long t0 = System.nanoTime();
            Rollups.Result r = rollups.rollUp(dayEnd + SETTLE.toMillis());
            rolled += r.windowsWritten();
            System.out.printf("  roll-up pass up to %s: %d hours, %d days, %,d windows written in %.1f s%n",
                    Instant.ofEpochMilli(dayEnd), r.hours(), r.days(), r.windowsWritten(), (System.nanoTime() - t0) / 1e9);
        }
        return rolled;
    }

    /** Methods and the topology of every corpus stack (the union of what the windows reference). */
    private int writeTopology() {
        List<NodeRecord> nodes = CorpusStacks.nodes(stacks.union());
        System.out.printf("corpus: %,d stacks, %,d methods, %,d CCT nodes; writing methods and topology%n",
                stacks.stackCount(), stacks.methods().size(), nodes.size());
        long t0 = System.nanoTime();
        writer.writeMethods(stacks.methods());
        NodeBatches.write(writer, nodes, "  corpus topology");
        System.out.printf("  topology written in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        return nodes.size();
    }

    /**
     * Windows {@code [batch * WINDOWS_PER_WRITE, ...)} of {@code total}, numbered by time, then
     * instance. Runs on the generator thread.
     */
    private List<WindowCounts> generate(WindowDraws draws, long from, long batch, long total) {
        long window = options.window().toMillis();
        List<WindowCounts> out = new ArrayList<>();
        long first = batch * WINDOWS_PER_WRITE;
        long last = Math.min(total, first + WINDOWS_PER_WRITE);
        for (long i = first; i < last; i++) {
            long start = from + (i / options.instances()) * window;
            int k = (int) (i % options.instances());
            out.add(new WindowCounts(new ExecutionId(SERVICE, versionOf(k), instanceId(k)).key(), start,
                    start + window, draws.draw(random, options.samplesPerWindow())));
        }
        return out;
    }
}
