package io.cctflow.bench.pipeline;

import static io.cctflow.bench.BenchArgs.duration;
import static io.cctflow.bench.BenchArgs.positive;

import io.cctflow.bench.BenchArgs;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Scale-out on the multi-process cluster: for each job parallelism (default 1, 2 and 4 slots over
 * the two TaskManagers) a fresh {@link ClusterUnderTest} is started, fed the same simulated fleet
 * ({@link FleetLoad} over the recorded {@link StackCorpus}), and measured over a steady phase:
 * samples per second the job committed, CPU per committed sample of all the cluster's processes
 * and of the TaskManagers alone, how the TaskManagers' CPU divides, and batch-to-queryable latency.
 * One table at the end, the parallelisms side by side. Options in {@link #USAGE}.
 */
public final class ClusterScaleOutBenchmark {
    static final String USAGE = """
            usage: ClusterScaleOutBenchmark [--option value]...
              --parallelism 1,2,4       job parallelisms to measure, each on a fresh cluster
              --instances 200           simulated fleet size (x 100 samples/s with the defaults below)
              --warmup 40s              per parallelism, load before measuring
              --measure 60s             per parallelism, the steady phase
              --threads 2               busy threads per simulated instance
              --period 20ms             sampling period per thread
              --flush 10s               batch interval per instance
              --batch-pool 256          distinct batch bodies encoded up front
              --standalone-jar standalone/target/cctflow-standalone.jar
                                        the jar whose `cluster` command is started (it finds the job
                                        and query-service jars in the usual target/ directories)
              --port 18480              port of the cluster's first query service
              --data-dir DIR            where the clusters keep their data, one subdirectory each
                                        (default: a new directory under java.io.tmpdir)
              --seed 1                  random seed of the fleet's stack draws
            """;

    private ClusterScaleOutBenchmark() {
    }

    /** One parallelism's figures. */
    record Row(int parallelism, double offered, double committed, double cpuMicrosPerSample,
            double taskManagerMicrosPerSample, String taskManagerCores, Map<String, Double> coresByRole,
            double latencyMedianSeconds, double latencyP99Seconds, long lagStart, long lagEnd) {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && args[0].equals("--help")) {
            System.out.print(USAGE);
            return;
        }
        Map<String, String> v;
        List<Integer> parallelisms = new ArrayList<>();
        try {
            v = BenchArgs.overlay(Map.ofEntries(Map.entry("parallelism", "1,2,4"), Map.entry("instances", "200"),
                    Map.entry("warmup", "40s"), Map.entry("measure", "60s"), Map.entry("threads", "2"),
                    Map.entry("period", "20ms"), Map.entry("flush", "10s"), Map.entry("batch-pool", "256"),
                    Map.entry("standalone-jar", "standalone/target/cctflow-standalone.jar"),
                    Map.entry("port", "18480"), Map.entry("data-dir", ""), Map.entry("seed", "1")), args);
            for (String p : v.get("parallelism").split(",")) {
                int n = Integer.parseInt(p.trim());
                if (n < 1 || n > 4) {
                    throw new IllegalArgumentException("--parallelism: " + n + " is outside 1..4 (the cluster has 4 slots)");
                }
                parallelisms.add(n);
            }
            positive(v, "instances");
        } catch (NumberFormatException e) {
            System.err.println("--parallelism: give a comma-separated list of 1..4, e.g. 1,2,4 (" + e.getMessage() + ")");
            System.exit(2);
            return;
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Path jar = Path.of(v.get("standalone-jar"));
        if (!Files.isRegularFile(jar)) {
            System.err.println("--standalone-jar " + jar + " does not exist; build it with mvn -pl standalone -am package");
            System.exit(2);
        }
        Path data = v.get("data-dir").isEmpty() ? Files.createTempDirectory("cctflow-scale-out-") : Path.of(v.get("data-dir"));
        PipelineBenchmark.routeLogsToFile(data);
        PrintStream out = System.out;
        StackCorpus corpus = StackCorpus.load();
        int instances = positive(v, "instances");
        long flushMillis = duration(v, "flush").toMillis();
        List<Row> rows = new ArrayList<>();
        for (int p : parallelisms) {
            Random random = new Random(Long.parseLong(v.get("seed")));
            EncodedFleetBatches batches = new EncodedFleetBatches(new FleetBatches(corpus, positive(v, "threads"),
                    (int) duration(v, "period").toMillis(), flushMillis, random), positive(v, "batch-pool"), random);
            out.printf("%n== parallelism %d: starting a fresh cluster in %s ==%n", p, data.resolve("p" + p));
            try (ClusterUnderTest cluster = ClusterUnderTest.start(jar, data.resolve("p" + p), p, positive(v, "port"),
                    Duration.ofMinutes(6), out, "   cluster| ")) {
                rows.add(measure(cluster, p, instances, flushMillis, batches, duration(v, "warmup"),
                        duration(v, "measure"), out));
            }
        }
        out.printf("%n== scale-out on the multi-process cluster: %d instances x %s threads at %s (%,.0f samples/s offered),"
                        + " %s warm-up, %s measured ==%n", instances, v.get("threads"), v.get("period"),
                rows.isEmpty() ? 0 : rows.get(0).offered(), v.get("warmup"), v.get("measure"));
        out.println("parallelism | committed samples/s | CPU µs/sample, all processes | CPU µs/sample, TaskManagers"
                + " | TaskManager cores (tm-a / tm-b) | cores by role | batch-to-queryable median / p99 | lag start -> end (batches)");
        for (Row r : rows) {
            out.printf("%d | %,.0f | %.1f | %.1f | %s | %s | %.1f s / %.1f s | %,d -> %,d%n", r.parallelism(), r.committed(),
                    r.cpuMicrosPerSample(), r.taskManagerMicrosPerSample(), r.taskManagerCores(),
                    format(r.coresByRole()), r.latencyMedianSeconds(), r.latencyP99Seconds(), r.lagStart(), r.lagEnd());
        }
        out.println("machine: " + Runtime.getRuntime().availableProcessors() + " cores; the generator (this JVM) is not"
                + " counted in CPU per sample");
        System.exit(0);
    }

    private static Row measure(ClusterUnderTest cluster, int parallelism, int instances, long flushMillis,
            EncodedFleetBatches batches, Duration warmup, Duration measure, PrintStream out) throws Exception {
        FleetLoad.Fleet fleet = new FleetLoad.Fleet(instances, System.currentTimeMillis());
        LatencyProbes probes = new LatencyProbes(60_000, TimeUnit.MINUTES.toMillis(2));
        int probeEvery = Math.max(1, (int) (instances * 1000L / flushMillis));
        FleetLoad load = new FleetLoad(cluster, fleet, batches, instances, flushMillis, probes, probeEvery);
        load.start();
        long warmupEnd = System.nanoTime() + warmup.toNanos();
        while (System.nanoTime() < warmupEnd) {
            probes.poll(cluster.reader());
            Thread.sleep(200);
        }
        probes.drain();
        ConsumerLag.Snapshot first = cluster.lag().read();
        Map<String, Long> cpuStart = cluster.cpuNanosByProcess();
        long taskManagers = cpuStart.keySet().stream().filter(k -> k.startsWith("taskmanager ")).count();
        if (taskManagers != 2) {
            out.println("   !!! " + taskManagers + " TaskManagers alive at the start of the measurement, not 2 (their"
                    + " logs are in the cluster's data directory): the figures below are not the cluster's");
        }
        MachineLoad machineStart = MachineLoad.now();
        long end = System.nanoTime() + measure.toNanos();
        while (System.nanoTime() < end) {
            probes.poll(cluster.reader());
            Thread.sleep(200);
        }
        ConsumerLag.Snapshot last = cluster.lag().read();
        Map<String, Long> cpuEnd = cluster.cpuNanosByProcess();
        String machine = MachineLoad.now().since(machineStart);
        LatencyProbes.Result latency = probes.drain();
        load.stop();

        for (String process : cpuStart.keySet()) {
            if (!cpuEnd.containsKey(process)) {
                out.println("   !!! " + process + " died during the measurement (its log is in the cluster's data"
                        + " directory): the figures below are not the cluster's");
            }
        }
        double seconds = (last.nanoTime() - first.nanoTime()) / 1e9;
        double committedSamples = (last.committedOffsets() - first.committedOffsets()) * (double) load.samplesPerBatch();
        Map<String, Double> coresByRole = new TreeMap<>();
        List<Double> taskManagerCores = new ArrayList<>();
        double allCpu = 0;
        double tmCpu = 0;
        for (Map.Entry<String, Long> e : cpuEnd.entrySet()) {
            double cpu = (e.getValue() - cpuStart.getOrDefault(e.getKey(), 0L)) / 1e9;
            String role = e.getKey().substring(0, e.getKey().indexOf(' '));
            coresByRole.merge(role, cpu / seconds, Double::sum);
            allCpu += cpu;
            if (role.equals("taskmanager")) {
                tmCpu += cpu;
                taskManagerCores.add(cpu / seconds);
            }
        }
        double perSample = committedSamples > 0 ? allCpu * 1e6 / committedSamples : Double.NaN;
        double tmPerSample = committedSamples > 0 ? tmCpu * 1e6 / committedSamples : Double.NaN;
        StringBuilder tms = new StringBuilder();
        for (double c : taskManagerCores) {
            tms.append(tms.length() == 0 ? "" : " / ").append(String.format("%.2f", c));
        }
        out.printf("   offered %,.0f samples/s; committed %,.0f samples/s over %.0f s; CPU %.1f µs/sample (TaskManagers"
                        + " %.1f); cores by role %s; TaskManager cores %s%n", load.offeredSamplesPerSecond(),
                committedSamples / seconds, seconds, perSample, tmPerSample, format(coresByRole), tms);
        out.println("   batch-to-queryable latency: " + latency.summary());
        out.println("   generator: " + machine);
        return new Row(parallelism, load.offeredSamplesPerSecond(), committedSamples / seconds, perSample, tmPerSample,
                tms.toString(), coresByRole, latency.percentile(50) / 1000.0, latency.percentile(99) / 1000.0,
                first.lag(), last.lag());
    }

    private static String format(Map<String, Double> cores) {
        StringBuilder s = new StringBuilder();
        cores.forEach((role, c) -> s.append(s.length() == 0 ? "" : ", ").append(role).append(' ')
                .append(String.format("%.2f", c)));
        return s.toString();
    }
}
