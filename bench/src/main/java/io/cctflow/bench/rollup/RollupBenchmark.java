package io.cctflow.bench.rollup;

import io.cctflow.bench.BenchArgs;
import io.cctflow.bench.pipeline.ProcFs;
import io.cctflow.bench.pipeline.StackCorpus;
import io.cctflow.bench.query.CorpusStacks;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.maintenance.Rollups;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.graph.write.WrittenWindows;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.Resolution;
import io.cctflow.servers.Neo4jProcess;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.neo4j.driver.Driver;

/**
 * Issue 31, goal 3: the graph store's roll-up pass ({@link Rollups#rollUp}, as the query service's
 * scheduler runs it) over one hour of N busy instances of one deployment. Writes, for each N of
 * {@code --instances} (e.g. 100,300,1000), one hour of one-minute windows of instances [0, N) into
 * its own hour of one day ({@link BusyFleet}: 6,000 corpus stacks per instance-minute), through
 * {@link GraphWriter} into Neo4j in a child JVM ({@link Neo4jProcess}, so this JVM's heap is the
 * pass's); then runs one pass per hour, timing each (wall, this JVM's CPU, Neo4j's CPU, this JVM's
 * heap: {@link HeapWatch}), and a last pass that rolls up the day. Every pass's roll-ups are
 * checked against sums computed apart ({@link RollupCheck}). Prints a Markdown table; exits 1 if a
 * roll-up differs.
 */
public final class RollupBenchmark {
    static final String USAGE = """
            RollupBenchmark [--option value ...]
              --instances 100,300,1000   busy instances of one deployment, one hour per figure (ascending)
              --samples-per-window 6000  corpus stacks per instance-minute (6,000: two busy threads at 20 ms)
              --pool 101                 distinct busy minutes drawn from the corpus (a prime above 60)
              --seed 31                  random seed of the draws and the spot-checks
              --neo4j-heap 1g            -Xmx of the Neo4j child JVM
              --writers 2                threads writing the fine windows (not timed as the pass)
              --data-dir DIR             Neo4j home (must be empty or absent; default a new temporary directory)
              --phase all                all; write (the fine windows, kept in --data-dir); pass (the timed passes
                                         over a written --data-dir: run it under the measurement lock); sink
                                         (the samples job's window writes for the largest count: ContributionWrites)
              --sink-minutes 3           minutes of windows the sink phase writes
              --batches-per-minute 6     contributions per instance-minute in the sink phase (the agent's 10 s flush)
              --sink-memory-mib 64       the sink phase's writer remembers this many MiB of windows (the job's
                                         windows.recent-mib); four rounds, alternately without and with it
            Run this JVM with the -Xmx to test (the pass's heap bound: e.g. -Xmx256m).
            """;
    /** The query service's default {@code rollup.settle}. */
    private static final Duration SETTLE = Duration.ofMinutes(10);
    private static final long SETTLE_MILLIS = SETTLE.toMillis();

    private RollupBenchmark() {
    }

    public static void main(String[] args) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.print(USAGE);
            return;
        }
        int status;
        try {
            status = run(BenchArgs.overlay(Map.ofEntries(Map.entry("instances", "100,300,1000"),
                    Map.entry("samples-per-window", "6000"), Map.entry("pool", "101"), Map.entry("seed", "31"),
                    Map.entry("neo4j-heap", "1g"), Map.entry("writers", "2"), Map.entry("data-dir", ""),
                    Map.entry("phase", "all"), Map.entry("sink-minutes", "3"), Map.entry("batches-per-minute", "6"),
                    Map.entry("sink-memory-mib", "64")), args));
        } catch (IllegalArgumentException e) {
            System.err.println("RollupBenchmark: " + e.getMessage());
            status = 2;
        } catch (Exception | Error e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }

    private static int run(Map<String, String> o) throws Exception {
        String phase = o.get("phase");
        if (!List.of("all", "write", "pass", "sink").contains(phase)) {
            throw new IllegalArgumentException("--phase must be all, write, pass or sink, was " + phase);
        }
        if ((phase.equals("write") || phase.equals("pass")) && o.get("data-dir").isEmpty()) {
            throw new IllegalArgumentException("--phase " + phase + " needs --data-dir");
        }
        Path dir = o.get("data-dir").isEmpty() ? Files.createTempDirectory("cctflow-rollup-bench-") : Path.of(o.get("data-dir"));
        RollupDataset data;
        if (phase.equals("pass")) {
            data = RollupDataset.load(dir);
        } else {
            if (Files.isDirectory(dir)) {
                try (var entries = Files.list(dir)) {
                    if (entries.findAny().isPresent()) {
                        throw new IllegalArgumentException("--data-dir " + dir + " is not empty (use --phase pass to"
                                + " roll it up)");
                    }
                }
            }
            data = RollupDataset.of(o, Resolution.DAY.floor(System.currentTimeMillis()) - Resolution.DAY.millis());
        }
        System.out.printf("RollupBenchmark %s; data directory %s; %s%n", data, dir, load());
        long t0 = System.nanoTime();
        BusyFleet fleet = BusyFleet.draw(new CorpusStacks(StackCorpus.load()), data.pool(), data.samplesPerWindow(),
                data.seed());
        System.out.printf("drew %d busy minutes of %,d samples in %.1f s%n", fleet.poolSize(), data.samplesPerWindow(),
                (System.nanoTime() - t0) / 1e9);
        try (Neo4jProcess neo4j = Neo4jProcess.start(dir.resolve("neo4j"), o.get("neo4j-heap"));
                Driver driver = GraphStoreConfig.unauthenticated(neo4j.boltUri()).openDriver()) {
            if (phase.equals("sink")) {
                int perMinute = BenchArgs.positive(o, "batches-per-minute");
                BusyFleet batches = BusyFleet.draw(new CorpusStacks(StackCorpus.load()), data.pool(),
                        data.samplesPerWindow() / perMinute, data.seed() + 1);
                GraphSchema.ensure(driver, "");
                writeInstances(new GraphWriter(driver, ""), data);
                String before = load();
                long memoryBytes = BenchArgs.positive(o, "sink-memory-mib") * (1L << 20);
                for (int round = 0; round < 4; round++) { // each round its own hour: new windows, as live ones
                    WrittenWindows memory = round % 2 == 0 ? WrittenWindows.none() : new WrittenWindows(memoryBytes);
                    System.out.println(ContributionWrites.measure(batches, new GraphWriter(driver, ""), memory,
                            data.largest(), BenchArgs.positive(o, "sink-minutes"), perMinute, data.hourStart(round),
                            neo4j.pid()));
                }
                System.out.printf("before: %s, after: %s; %s UTC%n", before, load(), Instant.now());
                return 0;
            }
            if (!phase.equals("pass")) {
                write(fleet, data, driver, BenchArgs.positive(o, "writers"), neo4j.pid());
                data = data.save(dir);
            }
            if (phase.equals("write")) {
                System.out.printf("written; roll it up with --phase pass --data-dir %s%n", dir);
                return 0;
            }
            // every window older than the pass's margin, so no pass takes an earlier hour's windows for late ones
            Thread.sleep(Math.max(0, data.writtenMillis() + WindowReader.WRITE_MARGIN_MILLIS + 1_000
                    - System.currentTimeMillis()));
            return passes(fleet, data, driver, neo4j.pid());
        }
    }

    private static void write(BusyFleet fleet, RollupDataset data, Driver driver, int writers, long neo4jPid)
            throws Exception {
        GraphSchema.ensure(driver, "");
        GraphWriter writer = new GraphWriter(driver, "");
        writeInstances(writer, data);
        for (int h = 0; h < data.sizes().length; h++) {
            writeHour(fleet, writer, h, data.hourStart(h), data.sizes()[h], writers, neo4jPid);
        }
    }

    private static void writeInstances(GraphWriter writer, RollupDataset data) {
        List<InstanceRecord> instances = new ArrayList<>();
        for (int k = 0; k < data.largest(); k++) {
            instances.add(new InstanceRecord(BusyFleet.SERVICE, BusyFleet.VERSION, BusyFleet.instanceId(k),
                    "host-" + k, 1000 + k, data.day(), Map.of(), data.day(), data.day() + Resolution.DAY.millis() - 1));
        }
        writer.writeInstances(instances);
    }

    /** One pass per hour, then one for the day; each checked. Returns the exit status. */
    private static int passes(BusyFleet fleet, RollupDataset data, Driver driver, long neo4jPid) {
        int[] sizes = data.sizes();
        List<String> rows = new ArrayList<>();
        List<String> failures;
        try (HeapWatch heap = new HeapWatch()) {
            Rollups rollups = new Rollups(driver, "", SETTLE);
            RollupCheck check = new RollupCheck(fleet, WindowReader.asStored(driver, ""));
            for (int h = 0; h < sizes.length; h++) {
                long hourEnd = data.hourStart(h) + Resolution.HOUR.millis();
                rows.add(timePass(rollups, hourEnd + SETTLE_MILLIS, "hour, " + sizes[h] + " instances", heap, neo4jPid));
                check.checkHour(h, data.hourStart(h), sizes[h], data.seed() + h);
            }
            rows.add(timePass(rollups, data.day() + Resolution.DAY.millis() + SETTLE_MILLIS,
                    "day, " + data.largest() + " instances (" + sizes.length + " hours)", heap, neo4jPid));
            check.checkDay(data.day(), sizes, data.seed());
            failures = check.failures();
            System.out.printf("checked %d roll-ups against sums computed from the written windows: %s%n",
                    check.checked(), failures.isEmpty() ? "all equal" : failures.size() + " differ");
            failures.forEach(f -> System.out.println("  DIFFERS: " + f));
        }
        System.out.println();
        System.out.println("| pass | wall | pass JVM CPU | Neo4j CPU | windows written | heap (this JVM) |");
        System.out.println("|---|---|---|---|---|---|");
        rows.forEach(System.out::println);
        System.out.printf("%n%s; %s UTC%n", load(), Instant.now());
        return failures.isEmpty() ? 0 : 1;
    }

    private static void writeHour(BusyFleet fleet, GraphWriter writer, int h, long hourStart, int instances,
            int threads, long neo4jPid) throws Exception {
        long cpu0 = cpuNanos();
        long neo0 = ProcFs.cpuNanos(neo4jPid);
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < threads; w++) {
                int first = w;
                done.add(pool.submit(() -> {
                    for (int k = first; k < instances; k += threads) {
                        writer.writeWindowCounts(fleet.instanceHour(k, h, hourStart));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        double s = (System.nanoTime() - t0) / 1e9;
        long windows = (long) instances * BusyFleet.MINUTES_PER_HOUR;
        System.out.printf("wrote hour %d: %,d fine windows of %d instances in %.1f s (%.0f windows/s; this JVM %.0f"
                        + " CPU-µs, Neo4j %.0f CPU-µs per window); %s%n", h, windows, instances, s, windows / s,
                (cpuNanos() - cpu0) / 1e3 / windows, (ProcFs.cpuNanos(neo4jPid) - neo0) / 1e3 / windows, load());
    }

    private static String timePass(Rollups rollups, long now, String what, HeapWatch heap, long neo4jPid) {
        heap.start();
        String loadBefore = load();
        long cpu0 = cpuNanos();
        long neo0 = ProcFs.cpuNanos(neo4jPid);
        long t0 = System.nanoTime();
        Rollups.Result r = rollups.rollUp(now);
        double wall = (System.nanoTime() - t0) / 1e9;
        double cpu = (cpuNanos() - cpu0) / 1e9;
        double neo = (ProcFs.cpuNanos(neo4jPid) - neo0) / 1e9;
        HeapWatch.Heap h = heap.stop();
        System.out.printf("pass (%s): %d hours, %d days, %,d windows written, %d refused in %.1f s; this JVM %.1f s"
                        + " CPU, Neo4j %.1f s CPU; %s; before: %s, after: %s%n", what, r.hours(), r.days(),
                r.windowsWritten(), r.refused(), wall, cpu, neo, h.summary(), loadBefore, load());
        return String.format("| %s | %.1f s | %.1f s | %.1f s | %,d | +%.1f MiB after GC (max %.1f, baseline %.1f;"
                        + " peak %.0f; -Xmx %.0f MiB; %d GCs) |", what, wall, cpu, neo, r.windowsWritten(),
                HeapWatch.Heap.mib(Math.max(0, h.maxAfterGc() - h.baseline())), HeapWatch.Heap.mib(h.maxAfterGc()),
                HeapWatch.Heap.mib(h.baseline()), HeapWatch.Heap.mib(h.peakUsed()), HeapWatch.Heap.mib(h.maxHeap()),
                h.collections());
    }

    static long cpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    private static String load() {
        try {
            return "load average " + Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "load average unknown";
        }
    }
}
