package io.cctflow.bench.pipeline;

import static io.cctflow.bench.BenchArgs.duration;
import static io.cctflow.bench.BenchArgs.positive;

import io.cctflow.bench.BenchArgs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command-line options of {@link PipelineBenchmark}, {@code --key value} pairs; every option, its
 * default and meaning are in {@link #USAGE} (and bench/README.md). Immutable.
 */
public record PipelineBenchOptions(Path dataDir, boolean keepData, Set<String> phases, int startInstances,
        int maxInstances, int maxSteps, Duration warmup, Duration measure, int busyThreads, int periodMillis,
        long flushMillis, int batchPool, long newNodes, int nodeDepth, int nodeInstances, Duration nodeTimeout, int partitions,
        long seed, Map<String, String> jobSettings, Drain drain) {

    /**
     * The drain phase's options: {@code instances} x {@code batches} batches published before the
     * job starts; per round, one job run of each of {@code configs} (samples-job settings over
     * {@code jobSettings}; one empty map when none given) drains them; {@code warmupBatches} per
     * instance of other instances drained first, unmeasured (0: the first run is JIT-cold); a JFR
     * recording of each measured run into {@code jfrDir} unless null.
     */
    public record Drain(int instances, int batches, int rounds, int warmupBatches, List<Map<String, String>> configs,
            Duration timeout, Path jfrDir) {
    }

    public static final String USAGE = """
            usage: PipelineBenchmark [--option value]...
              --phases rate,nodes,tasks which phases to run, in this order (rate: sustained samples/s and
                                        batch-to-queryable latency; nodes: time to ingest new nodes;
                                        tasks: time for a new task definition over those nodes); or
                                        drain alone: CPU per sample to drain a fixed backlog
              --drain-instances 400     drain: instances of the backlog
              --drain-batches 10        drain: batches per instance (one per --flush, in the past)
              --drain-rounds 3          drain: job runs per configuration, alternating
              --drain-warmup-batches 0  drain: batches per instance of other instances drained first,
                                        unmeasured, so the runs are JIT-warm (0: the first run is cold)
              --drain-configs ''        drain: job configurations compared, separated by ';', each
                                        key=value pairs separated by ',' over the job settings, e.g.
                                        'checkpoint.interval=5s;checkpoint.interval=20s'
              --drain-timeout 15m       drain: a run that has not committed everything by then fails
              --drain-jfr DIR           drain: a JFR recording (profile settings) of each run there
              --start-instances 20      fleet size of the first rate step
              --max-instances 1000      largest fleet size tried
              --max-steps 3             rate steps at most (doubling while sustained, then one midpoint)
              --warmup 20s              per step, before measuring
              --measure 40s             per step, the steady phase
              --threads 2               busy threads per simulated instance
              --period 20ms             sampling period per thread
              --flush 10s               batch interval per instance
              --batch-pool 256          distinct batch bodies the generator encodes up front and draws
                                        from (each batch: its own instance, window and sequence)
              --new-nodes 1000000       new CCT nodes the nodes phase creates
              --node-depth 100          frames per synthetic stack
              --node-instances 10       executions the new nodes are spread over
              --node-timeout 180s       the nodes and tasks phases give up waiting after this long
              --partitions 2            partitions of the samples topic
              --parallelism 1           samples-job parallelism
              --state-backend hashmap   samples-job state backend (hashmap or rocksdb)
              --checkpoint-interval 10s samples-job checkpoint interval (the committed offsets move with it)
              --data-dir DIR            where Kafka, Neo4j and Flink keep their files (default: a new
                                        directory under java.io.tmpdir); must be empty or absent
              --keep-data false         keep the data directory after the run
              --seed 1                  random seed of the fleet's stack draws
            """;

    /** Parses {@code args}; a bad option throws naming it. */
    public static PipelineBenchOptions parse(String[] args) {
        Map<String, String> v = BenchArgs.overlay(Map.ofEntries(
                Map.entry("phases", "rate,nodes,tasks"), Map.entry("start-instances", "20"),
                Map.entry("max-instances", "1000"), Map.entry("max-steps", "3"), Map.entry("warmup", "20s"),
                Map.entry("measure", "40s"), Map.entry("threads", "2"), Map.entry("period", "20ms"),
                Map.entry("flush", "10s"), Map.entry("batch-pool", "256"), Map.entry("new-nodes", "1000000"), Map.entry("node-depth", "100"),
                Map.entry("node-instances", "10"), Map.entry("node-timeout", "180s"), Map.entry("partitions", "2"),
                Map.entry("parallelism", "1"), Map.entry("state-backend", "hashmap"),
                Map.entry("checkpoint-interval", "10s"), Map.entry("data-dir", ""), Map.entry("keep-data", "false"),
                Map.entry("seed", "1"), Map.entry("drain-instances", "400"), Map.entry("drain-batches", "10"),
                Map.entry("drain-rounds", "3"), Map.entry("drain-warmup-batches", "0"), Map.entry("drain-configs", ""),
                Map.entry("drain-timeout", "15m"), Map.entry("drain-jfr", "")), args);
        Set<String> phases = Set.of(v.get("phases").split(","));
        for (String p : phases) {
            if (!p.equals("rate") && !p.equals("nodes") && !p.equals("tasks") && !p.equals("drain")) {
                throw new IllegalArgumentException("--phases: unknown phase '" + p + "'; use rate, nodes, tasks or a"
                        + " comma-separated list of them, or drain alone");
            }
        }
        if (phases.contains("drain") && phases.size() > 1) {
            throw new IllegalArgumentException("--phases: drain runs alone (it starts the job itself, once per run)");
        }
        String dir = v.get("data-dir");
        long periodMillis = duration(v, "period").toMillis();
        long flushMillis = duration(v, "flush").toMillis();
        if (periodMillis < 1 || flushMillis < periodMillis) {
            throw new IllegalArgumentException("--period must be at least 1ms and at most --flush");
        }
        int start = positive(v, "start-instances");
        int max = positive(v, "max-instances");
        if (start > max) {
            throw new IllegalArgumentException("--start-instances " + start + " exceeds --max-instances " + max);
        }
        return new PipelineBenchOptions(dir.isEmpty() ? null : Path.of(dir), Boolean.parseBoolean(v.get("keep-data")),
                phases, start, max, positive(v, "max-steps"), duration(v, "warmup"), duration(v, "measure"),
                positive(v, "threads"), (int) periodMillis, flushMillis, positive(v, "batch-pool"), positive(v, "new-nodes"),
                positive(v, "node-depth"), positive(v, "node-instances"), duration(v, "node-timeout"),
                positive(v, "partitions"), Long.parseLong(v.get("seed")),
                Map.of("parallelism", String.valueOf(positive(v, "parallelism")),
                        "state.backend", v.get("state-backend"),
                        "checkpoint.interval", v.get("checkpoint-interval")),
                new Drain(positive(v, "drain-instances"), positive(v, "drain-batches"), positive(v, "drain-rounds"),
                        BenchArgs.nonNegative(v, "drain-warmup-batches"), jobConfigs(v.get("drain-configs")),
                        duration(v, "drain-timeout"), v.get("drain-jfr").isEmpty() ? null : Path.of(v.get("drain-jfr"))));
    }

    /** "a=1,b=2;a=3" as [{a=1, b=2}, {a=3}]; blank: one configuration, the job settings alone. */
    static List<Map<String, String>> jobConfigs(String text) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (String config : text.split(";", -1)) {
            Map<String, String> settings = new LinkedHashMap<>();
            for (String pair : config.split(",")) {
                if (pair.isBlank()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                if (eq < 1) {
                    throw new IllegalArgumentException("--drain-configs: '" + pair + "' is not key=value (configurations"
                            + " are separated by ';', settings within one by ',')");
                }
                settings.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
            }
            configs.add(settings);
        }
        return List.copyOf(configs);
    }
}
