package io.cctflow.bench.query;

import static io.cctflow.bench.BenchArgs.duration;
import static io.cctflow.bench.BenchArgs.nonNegative;
import static io.cctflow.bench.BenchArgs.positive;

import io.cctflow.bench.BenchArgs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Command-line options of {@link QueryBenchmark}, {@code --key value} pairs; every option, its
 * default and meaning are in {@link #USAGE} (and bench/README.md). Immutable.
 *
 * @param phase {@code build} (write the dataset and stop), {@code measure} (time queries on a
 *     dataset an earlier {@code build} left in {@code dataDir}), {@code rollup} (roll such a dataset
 *     up again from its fine windows, with the code on the class path), {@code unroll} or {@code
 *     live} (make it look live, {@link LiveTail}), {@code plans} (what a 3 h read of it reads),
 *     {@code alerting} (time the {@code /metrics} refresh on it, {@link AlertingPhase}) or {@code all}
 */
public record QueryBenchOptions(String phase, Path dataDir, int instances, int days, int hours, int deployments,
        Duration window, int samplesPerWindow, int repetitions, int treeNodes, int diffNodes, int calls,
        long pageCacheBytes, Path reportDir, long seed, int jitWarmup, int readPhases, Duration alertingWindow,
        int lastPass) {

    /** Samples per instance-minute of {@code --profile light} (a nearly idle JVM). */
    static final int LIGHT = 100;
    /** Samples per instance-minute of {@code --profile busy}: two busy threads at the agent's default 20 ms. */
    static final int BUSY = 6000;

    public static final String USAGE = """
            usage: QueryBenchmark [--option value]...
              --phase all               build: write the dataset into --data-dir and stop; measure: time
                                        the queries on the dataset a build left there; all: both;
                                        rollup: roll that dataset up again (roll-up state reset), timed;
                                        unroll: make it look live (delete its last hour's roll-ups and
                                        its day's); live: unroll, then the roll-up passes a live query
                                        service runs, 10 min before the dataset's end, then a minute and
                                        five minutes apart up to the end, timed;
                                        plans: what 3 h of the fleet ending at its end reads (counts);
                                        alerting: time the /metrics refresh at its end (--repetitions
                                        cold and warm), scrape /metrics, check both by brute force
              --data-dir DIR            Neo4j's home and the dataset description (default: a new
                                        directory under java.io.tmpdir); a build needs it empty or absent
              --instances 10            instances of the fleet dataset
              --days 7                  days of the fleet dataset, ending at the last UTC midnight
              --hours 0                 hours of the fleet dataset instead of --days (0: --days decides)
              --deployments 1           deployments (versions) the instances are split into, evenly;
                                        with 2, compare times deployment against deployment over 1 h
              --window 1m               length of the fine windows
              --profile light           light: 100 samples per instance-minute; busy: 6,000 (two busy
                                        threads sampled every 20 ms, the agent's default)
              --samples-per-window P    samples each instance records per window, drawn from the corpus
                                        (default: the profile's per minute, scaled to --window)
              --repetitions 20          timed method-metrics calls per range (each on another method)
              --tree-nodes 100000       nodes of the synthetic subtree the tree call returns
              --diff-nodes 200000       nodes of each of the two synthetic deployments compared
              --calls 7                 timed tree and compare calls (after two warm-up calls)
              --page-cache 1g           Neo4j page cache
              --report-dir bench/reports  where query-<UTC time>.md goes
              --seed 1                  random seed of the stack draws
              --jit-warmup 30           untimed cold rounds (a metrics call, the hot-methods table, a
                                        metrics call ending at the end; other windows than the timed
                                        ones) before the first timed series, more until the JIT compiles
                                        under 0.1 s per s (at most ten times as many); 0: none
              --read-phases 3           rounds of in-process reads timed phase by phase after the calls
                                        (no cache: slow on a big fleet with the layout before); 0: none
              --alerting-window 5m      alerting.window of --phase alerting (the trailing window)
              --last-pass 0             --phase live's passes stop this many minutes before the end,
                                        a minute apart (a read ending at the end then meets those
                                        minutes' fine windows, as between two passes of a live
                                        service); 0: up to the end, then passes again there
            """;

    /** Parses {@code args}; a bad option throws naming it. */
    public static QueryBenchOptions parse(String[] args) {
        Map<String, String> v = BenchArgs.overlay(Map.ofEntries(
                Map.entry("phase", "all"), Map.entry("data-dir", ""), Map.entry("instances", "10"),
                Map.entry("days", "7"), Map.entry("hours", "0"), Map.entry("deployments", "1"), Map.entry("window", "1m"),
                Map.entry("profile", "light"), Map.entry("samples-per-window", ""),
                Map.entry("repetitions", "20"), Map.entry("tree-nodes", "100000"),
                Map.entry("diff-nodes", "200000"), Map.entry("calls", "7"), Map.entry("page-cache", "1g"),
                Map.entry("report-dir", "bench/reports"), Map.entry("seed", "1"), Map.entry("jit-warmup", "30"),
                Map.entry("read-phases", "3"), Map.entry("alerting-window", "5m"), Map.entry("last-pass", "0")), args);
        String phase = v.get("phase");
        if (!List.of("all", "build", "measure", "rollup", "unroll", "live", "plans", "alerting").contains(phase)) {
            throw new IllegalArgumentException("--phase must be all, build, measure, rollup, unroll, live, plans or"
                    + " alerting, was '"
                    + phase + "'");
        }
        String dir = v.get("data-dir");
        if (dir.isEmpty() && !phase.equals("all") && !phase.equals("build")) {
            throw new IllegalArgumentException("--phase " + phase + " needs --data-dir: the directory of an earlier"
                    + " --phase build");
        }
        Duration window = duration(v, "window");
        if (window.toMillis() < 1000 || Duration.ofHours(1).toMillis() % window.toMillis() != 0) {
            throw new IllegalArgumentException("--window must divide an hour and be at least 1s, was " + window);
        }
        int instances = positive(v, "instances");
        int deployments = positive(v, "deployments");
        if (deployments > instances) {
            throw new IllegalArgumentException("--deployments (" + deployments + ") must not exceed --instances ("
                    + instances + ")");
        }
        return new QueryBenchOptions(phase, dir.isEmpty() ? null : Path.of(dir), instances, positive(v, "days"),
                nonNegative(v, "hours"), deployments, window, samplesPerWindow(v, window), positive(v, "repetitions"),
                positive(v, "tree-nodes"), positive(v, "diff-nodes"), positive(v, "calls"), bytes(v, "page-cache"),
                Path.of(v.get("report-dir")), Long.parseLong(v.get("seed")), nonNegative(v, "jit-warmup"),
                nonNegative(v, "read-phases"), duration(v, "alerting-window"), lastPass(v));
    }

    private static int lastPass(Map<String, String> v) {
        int minutes = nonNegative(v, "last-pass");
        if (minutes > LiveTail.FIRST_PASS_MINUTES - 1) {
            throw new IllegalArgumentException("--last-pass must be at most " + (LiveTail.FIRST_PASS_MINUTES - 1)
                    + " (minutes before the end; --phase live's first pass is " + LiveTail.FIRST_PASS_MINUTES
                    + " before it), was " + minutes);
        }
        return minutes;
    }

    /** Hours of the fleet dataset: {@code --hours}, or {@code --days} in hours. */
    public int spanHours() {
        return hours > 0 ? hours : days * 24;
    }

    /** {@code --samples-per-window}, or the {@code --profile}'s rate over one window. */
    private static int samplesPerWindow(Map<String, String> v, Duration window) {
        if (!v.get("samples-per-window").isEmpty()) {
            return positive(v, "samples-per-window");
        }
        int perMinute = switch (v.get("profile")) {
            case "light" -> LIGHT;
            case "busy" -> BUSY;
            default -> throw new IllegalArgumentException("--profile must be light or busy, was '" + v.get("profile")
                    + "'");
        };
        return (int) Math.max(1, perMinute * window.toMillis() / 60_000);
    }

    /** {@code 512m}, {@code 2g} or a plain number of bytes. */
    private static long bytes(Map<String, String> v, String key) {
        String text = v.get(key).trim().toLowerCase(java.util.Locale.ROOT);
        long unit = text.endsWith("g") ? 1L << 30 : text.endsWith("m") ? 1L << 20 : text.endsWith("k") ? 1L << 10 : 1;
        try {
            long n = Long.parseLong(unit == 1 ? text : text.substring(0, text.length() - 1));
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be a size like 512m or 2g, was '" + v.get(key) + "'", e);
        }
    }
}
