package io.cctflow.bench.query;

import io.cctflow.bench.pipeline.MachineLoad;
import io.cctflow.bench.pipeline.StackCorpus;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.Resolution;
import io.cctflow.query.QueryService;
import io.cctflow.query.QueryServiceConfig;
import io.cctflow.query.alerting.AlertingConfig;
import io.cctflow.servers.Neo4jServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

/**
 * Query figures of issue 6 on a realistic dataset: a fleet of instances recording for days at
 * one-minute windows, the stacks drawn from a real recorded application (the bench corpus),
 * written through {@link GraphWriter} into embedded Neo4j and rolled up by the graph store's
 * {@code Rollups}; then the real query service (in this JVM, over HTTP on 127.0.0.1) is timed:
 * method metrics over 24 h and 7 days, the tree of a ~100,000-node subtree, the comparison of two
 * ~200,000-node deployments, and the Neo4j store size per instance-day. Prints a Markdown table
 * and writes it to {@code --report-dir}/query-&lt;UTC time&gt;.md. Options: {@link QueryBenchOptions#USAGE}.
 */
public final class QueryBenchmark {
    private QueryBenchmark() {
    }

    public static void main(String[] args) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.print(QueryBenchOptions.USAGE);
            return;
        }
        QueryBenchOptions options;
        try {
            options = QueryBenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("QueryBenchmark: " + e.getMessage());
            System.exit(2);
            return;
        }
        int status = 0;
        try {
            run(options);
        } catch (Exception | Error e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status); // the embedded Neo4j's Bolt threads are not daemons
    }

    private static void run(QueryBenchOptions options) throws Exception {
        Path dir = options.dataDir() != null ? options.dataDir() : Files.createTempDirectory("cctflow-query-bench-");
        boolean build = options.phase().equals("build") || options.phase().equals("all");
        if (build && Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("--data-dir " + dir + " is not empty; a build needs an empty"
                            + " or absent directory (use --phase measure to time an earlier build)");
                }
            }
        }
        System.out.printf("data directory %s; %s%n", dir, loadAverage());
        StackCorpus corpus = StackCorpus.load();
        CorpusStacks stacks = new CorpusStacks(corpus);
        Path home = dir.resolve("neo4j");
        Dataset dataset;
        if (build) {
            dataset = build(home, stacks, options);
            dataset.save(dir);
            System.out.printf("dataset written; measure it later with --phase measure --data-dir %s%n", dir);
        } else {
            dataset = Dataset.load(dir);
        }
        if (options.phase().equals("rollup")) {
            rollUpAgain(home, dataset, options);
            return;
        }
        if (options.phase().equals("unroll") || options.phase().equals("live") || options.phase().equals("plans")) {
            makeLive(home, dataset, options);
            return;
        }
        if (options.phase().equals("alerting")) {
            try (Neo4jServer neo4j = start(home, options)) {
                String before = loadAverage();
                MachineLoad machine = MachineLoad.now();
                String report = new AlertingPhase(dataset, options, stacks).run(
                        GraphStoreConfig.unauthenticated(neo4j.boltUri()));
                report += String.format("- %s; %s before, %s after%n", MachineLoad.now().since(machine), before,
                        loadAverage());
                System.out.print(report.substring(report.lastIndexOf("- ") + 2));
                writeReport(options, "alerting-", report);
            }
            return;
        }
        if (!options.phase().equals("build")) {
            String report;
            try (Neo4jServer neo4j = start(home, options)) {
                report = measure(GraphStoreConfig.unauthenticated(neo4j.boltUri()), dataset, stacks, options);
            }
            System.out.println();
            System.out.print(report);
            writeReport(options, "query-", report);
        }
    }

    /** Writes {@code report} to {@code --report-dir}/&lt;prefix&gt;&lt;UTC time&gt;.md. */
    private static void writeReport(QueryBenchOptions options, String prefix, String report) throws IOException {
        Files.createDirectories(options.reportDir());
        Path file = options.reportDir().resolve(prefix + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                .withZone(ZoneOffset.UTC).format(Instant.now()) + ".md");
        Files.writeString(file, report, StandardCharsets.UTF_8);
        System.out.println("report written to " + file);
    }

    /**
     * Rolls a built dataset up again from its fine windows with the code on the class path (the
     * roll-up state deleted, so every hour and day is rolled up anew), and prints what each
     * resolution then holds: how a new roll-up layout is brought to a dataset without writing its
     * fine windows again. Roll-ups the new code no longer writes are left as they are.
     */
    private static void rollUpAgain(Path home, Dataset dataset, QueryBenchOptions options) {
        try (Neo4jServer neo4j = start(home, options);
                Driver driver = GraphStoreConfig.unauthenticated(neo4j.boltUri()).openDriver()) {
            GraphSchema.ensure(driver, "");
            try (Session session = driver.session()) {
                session.run("MATCH (s:RollupState) DELETE s").consume();
            }
            MachineLoad machine = MachineLoad.now();
            long t0 = System.nanoTime();
            long written = FleetDataset.rollUp(driver, dataset.fromMillis(), dataset.toMillis());
            System.out.printf("rolled up again: %,d windows written in %.1f s; %s; %s%n", written,
                    (System.nanoTime() - t0) / 1e9, MachineLoad.now().since(machine), loadAverage());
            try (Session session = driver.session()) {
                session.run("""
                        MATCH (w:Window) WHERE w.start >= $from AND w.start < $to
                        WITH w, CASE WHEN w.members IS NULL THEN 'instance'
                                     WHEN w.instance ENDS WITH $deployment THEN 'deployment' ELSE 'group' END AS kind
                        RETURN w.resolution AS resolution, kind, count(w) AS windows,
                               sum(size(w.counts)) AS bytes ORDER BY resolution, kind
                        """, Map.of("from", dataset.fromMillis(), "to", dataset.toMillis(),
                                "deployment", DEPLOYMENT_INSTANCE)).list().forEach(r ->
                        System.out.printf("  %-12s %-10s %,9d windows, %,14d bytes of counts (%,.0f each)%n",
                                r.get("resolution").asString(), r.get("kind").asString(), r.get("windows").asLong(),
                                r.get("bytes").asLong(), (double) r.get("bytes").asLong() / r.get("windows").asLong()));
            }
        }
    }

    /**
     * {@code --phase unroll}: deletes the roll-ups of the dataset's last hour ({@link LiveTail});
     * {@code --phase live}: that, then the roll-up pass 10 minutes before the dataset's end (timed),
     * which rolls up the ten-minute slots and minutes of the last hour settled by then, the passes
     * from there to the end a minute and five minutes apart ({@link LiveTail#passesToTheEnd}), and
     * three more passes at the end with provisional minute sums on and off ({@link
     * LiveTail#repeatedPasses}); with {@code --last-pass}, passes a minute apart that stop that many
     * minutes before the end; both, and {@code --phase plans} alone,
     * print what the planner reads for 3 h of the fleet ending at the dataset's end and before it.
     */
    private static void makeLive(Path home, Dataset dataset, QueryBenchOptions options) {
        try (Neo4jServer neo4j = start(home, options);
                Driver driver = GraphStoreConfig.unauthenticated(neo4j.boltUri()).openDriver()) {
            GraphSchema.ensure(driver, "");
            if (!options.phase().equals("plans")) {
                System.out.printf("last hour's and its day's roll-ups deleted: %,d windows%n",
                        LiveTail.unroll(driver, dataset));
            }
            if (options.phase().equals("live")) {
                MachineLoad machine = MachineLoad.now();
                long t0 = System.nanoTime();
                var r = LiveTail.passAt(driver, dataset, LiveTail.FIRST_PASS_MINUTES);
                System.out.printf("roll-up pass " + LiveTail.FIRST_PASS_MINUTES + " min before the dataset's end: %d hours, %d ten-minute slots, %d minutes,"
                        + " %,d windows written in %.1f s; %s; %s%n", r.hours(), r.slots(), r.minutes(), r.windowsWritten(),
                        (System.nanoTime() - t0) / 1e9, MachineLoad.now().since(machine), loadAverage());
                System.out.print(LiveTail.passesToTheEnd(driver, dataset, options.lastPass()));
                if (options.lastPass() == 0) {
                    System.out.print(LiveTail.repeatedPasses(driver, dataset, 3));
                }
            }
            System.out.print(LiveTail.plans(driver, dataset, 0, 7, 13));
            System.out.print(LiveTail.checkReadEndingNow(driver, dataset));
        }
    }

    /** The instance id of a deployment's roll-up key ({@code Keys.deploymentRollup}); group keys go on after it. */
    private static final String DEPLOYMENT_INSTANCE = "\u001e";

    private static Neo4jServer start(Path home, QueryBenchOptions options) {
        return Neo4jServer.builder(home).pageCacheBytes(options.pageCacheBytes()).start();
    }

    /**
     * Writes the fleet dataset, stops Neo4j (its shutdown checkpoint leaves every page in the store
     * files, so their size is what the data takes), measures the store, then adds the synthetic
     * deployments.
     */
    private static Dataset build(Path home, CorpusStacks stacks, QueryBenchOptions options)
            throws InterruptedException {
        long to = Resolution.DAY.floor(System.currentTimeMillis());
        MachineLoad machine = MachineLoad.now();
        FleetDataset.Result fleet;
        try (Neo4jServer neo4j = start(home, options);
                Driver driver = GraphStoreConfig.unauthenticated(neo4j.boltUri()).openDriver()) {
            GraphSchema.ensure(driver, "");
            fleet = new FleetDataset(stacks, new GraphWriter(driver, ""), driver, options)
                    .build(to);
        }
        long store = size(home.resolve("data/databases/neo4j"));
        long logs = size(home.resolve("data/transactions/neo4j"));
        System.out.printf("fleet dataset built: %,d fine + %,d roll-up windows; store %.1f MiB (%.1f MiB per"
                        + " instance-day), transaction logs %.1f MiB; %s%n", fleet.fineWindows(),
                fleet.rollupWindows(), store / 1048576.0, store / 1048576.0 * 24 / ((long) options.instances()
                        * options.spanHours()),
                logs / 1048576.0, MachineLoad.now().since(machine));
        SyntheticDeployments.Result synthetic;
        try (Neo4jServer neo4j = start(home, options);
                Driver driver = GraphStoreConfig.unauthenticated(neo4j.boltUri()).openDriver()) {
            long syntheticStart = to - SyntheticDeployments.WINDOWS * SyntheticDeployments.WINDOW_MILLIS;
            synthetic = new SyntheticDeployments(stacks, options.seed() + 1)
                    .write(new GraphWriter(driver, ""), options.treeNodes(), options.diffNodes(), syntheticStart);
        }
        return new Dataset(options.instances(), options.deployments(), options.spanHours(), options.window().toMillis(),
                options.samplesPerWindow(), fleet.fromMillis(), fleet.toMillis(), fleet.fineWindows(),
                fleet.rollupWindows(), fleet.topologyNodes(), fleet.meanWindowNodes(), store, logs,
                fleet.windowWriteSeconds(), fleet.rollupSeconds(), synthetic.nodesA(), synthetic.nodesB(),
                synthetic.treeNodes());
    }

    private static String measure(GraphStoreConfig graph, Dataset dataset, CorpusStacks stacks,
            QueryBenchOptions options) throws IOException, InterruptedException {
        String loadBefore = loadAverage();
        MachineLoad machine = MachineLoad.now();
        QueryServiceConfig config = QueryServiceConfig.defaults().with(Map.of(QueryServiceConfig.NEO4J_URI, graph.uri(),
                QueryServiceConfig.PORT, "0", QueryServiceConfig.ROLLUP_INTERVAL, "0"));
        // no background work competes with the timed calls: no roll-up pass, no /metrics refresh
        try (QueryService service = QueryService.start(config, AlertingConfig.from(Map.of(AlertingConfig.ENABLED,
                "false")))) {
            QueryTimings timings = new QueryTimings(new ApiClient(service.port()), dataset, options, stacks);
            List<Duration> ranges = Stream.of(Duration.ofHours(3), Duration.ofDays(1), Duration.ofDays(7))
                    .filter(r -> r.toHours() <= dataset.hours()).toList();
            int most = ranges.isEmpty() ? options.repetitions()
                    : QueryTimings.mostRepetitionsAtEnd(ranges.get(0), dataset.windowMillis());
            if (options.repetitions() > most) {
                throw new IllegalArgumentException(String.format("--repetitions %d does not fit the %d-s windows"
                        + " of this dataset: the calls over %s ending at its end start one window apart, %d of them"
                        + " with the untimed ones; %s", options.repetitions(), dataset.windowMillis() / 1000,
                        ranges.get(0), 2 * (QueryTimings.WARMUP + options.repetitions()), most > 0
                                ? "use --repetitions " + most + " or fewer" : "build it with a shorter --window"));
            }
            if (options.jitWarmup() > 0) {
                System.out.printf("warming up: at least %d untimed cold rounds (metrics, table, metrics at the end),"
                        + " more until the JIT compiles less than %.2f s per s ...%n", options.jitWarmup(),
                        QueryTimings.QUIET_JIT);
                long start = System.nanoTime();
                int rounds = timings.warmUp(options.jitWarmup(), ranges.get(0), service::clearWindowCache);
                System.out.printf("  %d rounds in %.0f s%n", rounds, (System.nanoTime() - start) / 1e9);
            }
            List<Timing> metrics = new ArrayList<>();
            for (Duration range : ranges) {
                double goal = range.toDays() < 7 ? 300 : 1000;
                for (boolean cold : new boolean[] {true, false}) {
                    metrics.add(print(timings.methodMetrics(range, goal, cold, -1, service::clearWindowCache)));
                }
                metrics.add(print(timings.topMethods(range, goal, true, service::clearWindowCache)));
                if (range.equals(ranges.get(0))) { // "the last 3 h" read now
                    metrics.add(print(timings.methodMetricsAtEnd(range, goal, service::clearWindowCache)));
                    metrics.add(print(timings.topMethodsAtEnd(range, goal, service::clearWindowCache)));
                }
                // one instance over 24 h (issue 31); a dataset of less than a day: over its longest range
                if (range.toDays() == 1 || dataset.hours() < 24 && range.equals(ranges.get(ranges.size() - 1))) {
                    metrics.add(print(timings.methodMetrics(range, goal, true, dataset.instances() - 1,
                            service::clearWindowCache)));
                }
            }
            if (dataset.deployments() == 2) {
                metrics.add(print(timings.fleetCompare(2000, service::clearWindowCache)));
            }
            System.out.println("timing compare ...");
            Timing compare = timings.compare(2000); // first: the synthetic topology is not cached yet
            System.out.println("  " + compare.summary());
            System.out.println("timing tree ...");
            Timing tree = timings.tree(1000);
            System.out.println("  " + tree.summary());
            String loadAfter = loadAverage();
            String cpu = MachineLoad.now().since(machine);
            System.out.println("reading phases (no HTTP, no topology or window cache) ...");
            String phases;
            try (Driver driver = graph.openDriver()) {
                phases = ReadPhases.measure(driver, dataset, options.readPhases());
            }
            System.out.print(phases);
            List<Timing> all = new ArrayList<>(metrics);
            all.addAll(List.of(tree, compare));
            return QueryReport.format(dataset, all, loadBefore, loadAfter, cpu, phases);
        }
    }

    private static Timing print(Timing t) {
        System.out.println(t.what() + ": " + t.summary());
        return t;
    }

    static long size(Path dir) {
        if (!Files.exists(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot measure " + dir, e);
        }
    }

    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return "load average " + f[0] + " " + f[1] + " " + f[2] + " on " + Runtime.getRuntime().availableProcessors()
                    + " cores";
        } catch (IOException | RuntimeException e) {
            return "load average unknown";
        }
    }
}
