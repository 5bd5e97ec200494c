package io.cctflow.bench.query;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
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
 * Writes the fleet dataset: {@code instances} instances of one deployment recording for {@code days}
 * days, one fine window per instance per {@code window}, each holding {@code samplesPerWindow}
 * stacks drawn from the corpus in proportion to how often they were recorded, through
 * {@link GraphWriter} as the samples job writes them (topology once, then counts per (instance,
 * window)); then the graph store's own roll-up pass ({@link Rollups}) makes the hourly and daily
 * windows, one day at a time. Prints progress on stdout.
 *
 * <p>Not thread-safe; one build at a time.
 */
final class FleetDataset {
    static final String SERVICE = "maven-fleet";
    static final String VERSION = "3.8.7";
    /** The query service's default {@code rollup.settle}. */
    static final Duration SETTLE = Duration.ofMinutes(10);
    /** Windows per instance in one write call (and one generated batch). */
    private static final int WINDOWS_PER_WRITE = 10;
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

    /** Builds the dataset ending at {@code toMillis} (a UTC midnight). */
    Result build(long toMillis) throws InterruptedException {
        long window = options.window().toMillis();
        long from = toMillis - options.days() * Resolution.DAY.millis();
        int topology = writeTopology();
        List<InstanceRecord> instances = new ArrayList<>();
        for (int k = 0; k < options.instances(); k++) {
            instances.add(new InstanceRecord(SERVICE, VERSION, instanceId(k), "host-" + k, 1000 + k, from,
                    Map.of("zone", k % 2 == 0 ? "a" : "b"), from, toMillis - 1));
        }
        writer.writeInstances(instances);

        long perInstance = (toMillis - from) / window;
        long batches = (perInstance + WINDOWS_PER_WRITE - 1) / WINDOWS_PER_WRITE;
        long total = perInstance * options.instances();
        System.out.printf("fleet: %d instances x %d days = %,d fine windows of %d s, %d samples each; writing%n",
                options.instances(), options.days(), total, window / 1000, options.samplesPerWindow());
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
            Future<List<WindowCounts>> next = generator.submit(() -> generate(from, 0, perInstance));
            for (long b = 0; b < batches; b++) {
                List<WindowCounts> batch = next.get();
                if (b + 1 < batches) {
                    long nb = b + 1;
                    next = generator.submit(() -> generate(from, nb, perInstance));
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
                    System.out.printf("  fine windows %,d / %,d (%.0f %%), %.0f windows/s, %,.0f nodes per window,"
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
        Rollups rollups = new Rollups(driver, "", SETTLE);
        long rolled = 0;
        for (int d = 1; d <= options.days(); d++) {
            long dayEnd = from + d * Resolution.DAY.millis();
            long t0 = System.nanoTime();
            Rollups.Result r = rollups.rollUp(dayEnd + SETTLE.toMillis());
            rolled += r.windowsWritten();
            System.out.printf("  roll-up pass up to %s: %d hours, %d days, %,d windows written in %.1f s%n",
                    Instant.ofEpochMilli(dayEnd), r.hours(), r.days(), r.windowsWritten(), (System.nanoTime() - t0) / 1e9);
        }
        return new Result(from, toMillis, written, rolled, topology, (double) nodeEntries / written, writeSeconds,
                (System.nanoTime() - rollupStart) / 1e9);
    }

    /** Methods and the topology of every corpus stack (the union of what the windows reference). */
    private int writeTopology() {
        Cct all = new Cct();
        for (int s = 0; s < stacks.stackCount(); s++) {
            stacks.add(all, s, 1);
        }
        List<NodeRecord> nodes = CorpusStacks.nodes(all);
        System.out.printf("corpus: %,d stacks, %,d methods, %,d CCT nodes; writing methods and topology%n",
                stacks.stackCount(), stacks.methods().size(), nodes.size());
        long t0 = System.nanoTime();
        writer.writeMethods(stacks.methods());
        NodeBatches.write(writer, nodes, "  corpus topology");
        System.out.printf("  topology written in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        return nodes.size();
    }

    /** Windows {@code [batch * WINDOWS_PER_WRITE, ...)} of every instance. Runs on the generator thread. */
    private List<WindowCounts> generate(long from, long batch, long perInstance) {
        long window = options.window().toMillis();
        List<WindowCounts> out = new ArrayList<>();
        int[] counts = new int[stacks.stackCount()];
        int[] touched = new int[stacks.stackCount()];
        long first = batch * WINDOWS_PER_WRITE;
        long last = Math.min(perInstance, first + WINDOWS_PER_WRITE);
        for (long w = first; w < last; w++) {
            long start = from + w * window;
            for (int k = 0; k < options.instances(); k++) {
                int distinct = 0;
                for (int i = 0; i < options.samplesPerWindow(); i++) {
                    int s = stacks.corpus().draw(random);
                    if (counts[s]++ == 0) {
                        touched[distinct++] = s;
                    }
                }
                Cct tree = new Cct();
                for (int t = 0; t < distinct; t++) {
                    stacks.add(tree, touched[t], counts[touched[t]]);
                    counts[touched[t]] = 0;
                }
                out.add(new WindowCounts(new ExecutionId(SERVICE, VERSION, instanceId(k)).key(), start,
                        start + window, TreeCounts.of(tree)));
            }
        }
        return out;
    }
}
