package io.cctflow.bench.query;

import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.NodeTasks;
import io.cctflow.model.WindowCounts;
import io.cctflow.query.QueryService;
import io.cctflow.query.QueryServiceConfig;
import io.cctflow.query.alerting.AlertingConfig;
import io.cctflow.query.alerting.AlertingMetrics;
import io.cctflow.query.alerting.AlertingRefresher;
import io.cctflow.query.alerting.AlertingSnapshot;
import io.cctflow.query.alerting.MetricFamilies;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.neo4j.driver.Driver;

/**
 * {@code --phase alerting}: the {@code /metrics} refresh ({@link AlertingRefresher}) on a built
 * fleet dataset, as of the dataset's end (the store's time is in the past, so the refresher's clock
 * is set there), with one watched method and one watched task of the fleet's service configured.
 * Times refreshes in this JVM, cold (new readers: no topology or window cache) and warm (the same
 * readers again), with the CPU and heap each uses; then starts the real query service with the
 * same configuration and clock and scrapes {@code /metrics} over HTTP. Every snapshot and the
 * scrape are checked against a brute-force count over the stored fine windows of the trailing
 * window (their self counts walked up the corpus topology), not against the refresher's own code.
 *
 * <p>The dataset has no task labels; the phase writes them first (idempotent): the highest nodes
 * of one corpus method are the roots of task {@value #TASK}. Not thread-safe.
 */
final class AlertingPhase {
    static final String TASK = "bench-task";
    /** The refresh loop's delay in the service: long, so the scrape sees the first refresh only. */
    private static final Duration SERVICE_REFRESH = Duration.ofHours(1);
    private static final int SCRAPES = 5;

    private final Dataset dataset;
    private final QueryBenchOptions options;
    private final CorpusStacks stacks;
    private final String taskMethod;
    private final String watchedMethod;
    private final AlertingConfig config;

    AlertingPhase(Dataset dataset, QueryBenchOptions options, CorpusStacks stacks) {
        this.dataset = dataset;
        this.options = options;
        this.stacks = stacks;
        List<String> methods = QueryTimings.methods(stacks, 10);
        this.taskMethod = methods.get(0); // on the most stacks: a task of most samples
        this.watchedMethod = methods.get(1);
        this.config = AlertingConfig.from(Map.of(AlertingConfig.WATCH, FleetDataset.SERVICE + ":" + watchedMethod,
                AlertingConfig.TASKS, FleetDataset.SERVICE + ":" + TASK,
                AlertingConfig.WINDOW, options.alertingWindow().toMillis() + "ms",
                AlertingConfig.REFRESH, SERVICE_REFRESH.toMillis() + "ms"));
    }

    /** What the refresh must export for the newest deployment, counted without the refresher. */
    record Expected(long deploymentSamples, long methodSamples, long taskSamples, long taskMethodSamples) {
    }

    /** One timed refresh. */
    record Refresh(double wallMillis, double threadCpuMillis, double processCpuMillis, long allocatedBytes,
            long heapPeakBytes) {
    }

    String run(GraphStoreConfig graph) throws IOException, InterruptedException {
        StringBuilder out = new StringBuilder();
        long now = dataset.toMillis();
        Map<Long, NodeRecord> topology = new HashMap<>();
        for (NodeRecord n : CorpusStacks.nodes(stacks.union())) {
            topology.put(n.id(), n);
        }
        Set<Long> taskIds = methodIds(taskMethod);
        Set<Long> watchedIds = methodIds(watchedMethod);
        Expected expected;
        try (Driver driver = graph.openDriver()) {
            int roots = labelTaskRoots(driver, topology, taskIds);
            expected = expected(driver, topology, taskIds, watchedIds, now);
            line(out, "alerting as of %s (the dataset's end), window %s; watched %s:%s; task %s = the %,d highest"
                    + " nodes of %s", Instant.ofEpochMilli(now), options.alertingWindow(), FleetDataset.SERVICE,
                    watchedMethod, TASK, roots, taskMethod);
            line(out, "expected (brute force over the stored fine windows) for %s: %,d samples, method %,d, task %,d,"
                    + " method in task %,d", FleetDataset.version(1), expected.deploymentSamples(),
                    expected.methodSamples(), expected.taskSamples(), expected.taskMethodSamples());
            Clock fixed = Clock.fixed(Instant.ofEpochMilli(now), java.time.ZoneOffset.UTC);
            List<Refresh> cold = new ArrayList<>();
            for (int k = 0; k < options.repetitions() + 1; k++) {
                Refresh r = timed(refresher(driver, fixed), expected);
                if (k == 0) {
                    line(out, "first refresh of this JVM (cold, JIT cold): %s", describe(List.of(r)));
                } else {
                    cold.add(r);
                }
            }
            line(out, "cold refresh (new readers each time), n = %d: %s", cold.size(), describe(cold));
            AlertingRefresher same = refresher(driver, fixed);
            timed(same, expected);
            List<Refresh> warm = new ArrayList<>();
            for (int k = 0; k < options.repetitions(); k++) {
                warm.add(timed(same, expected));
            }
            line(out, "warm refresh (the same readers again), n = %d: %s", warm.size(), describe(warm));
        }
        scrape(graph, expected, now, out);
        return out.toString();
    }

    /** A refresher over new readers, as the service builds them (empty caches). */
    private AlertingRefresher refresher(Driver driver, Clock clock) {
        TopologyReader topology = new TopologyReader(driver, "");
        WindowReader windows = new WindowReader(driver, "", WindowReader.DEFAULT_WINDOW_CACHE_ROWS, null, topology);
        return new AlertingRefresher(new CatalogueReader(driver, ""), windows, topology, config, clock);
    }

    /** One refresh, timed, its snapshot checked. */
    private Refresh timed(AlertingRefresher refresher, Expected expected) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        System.gc();
        long baseline = 0;
        for (MemoryPoolMXBean p : heap) {
            p.resetPeakUsage();
            baseline += p.getUsage().getUsed();
        }
        long allocated = threads.getCurrentThreadAllocatedBytes();
        long threadCpu = threads.getCurrentThreadCpuTime();
        long processCpu = os.getProcessCpuTime();
        long start = System.nanoTime();
        AlertingSnapshot s = refresher.compute();
        double wall = (System.nanoTime() - start) / 1e6;
        Refresh r = new Refresh(wall, (threads.getCurrentThreadCpuTime() - threadCpu) / 1e6,
                (os.getProcessCpuTime() - processCpu) / 1e6, threads.getCurrentThreadAllocatedBytes() - allocated,
                heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum() - baseline);
        check(s, expected);
        return r;
    }

    private void check(AlertingSnapshot s, Expected e) {
        String newest = FleetDataset.version(1);
        require("deployment samples of " + newest, e.deploymentSamples(), s.deployments().stream()
                .filter(d -> d.service().equals(FleetDataset.SERVICE) && d.version().equals(newest))
                .mapToLong(AlertingSnapshot.DeploymentSamples::samples).sum());
        require("deployment samples of " + FleetDataset.version(0), e.deploymentSamples(), s.deployments().stream()
                .filter(d -> d.service().equals(FleetDataset.SERVICE) && d.version().equals(FleetDataset.version(0)))
                .mapToLong(AlertingSnapshot.DeploymentSamples::samples).sum());
        AlertingSnapshot.WatchedTime w = s.watched().stream().filter(x -> x.service().equals(FleetDataset.SERVICE))
                .findFirst().orElseThrow(() -> new IllegalStateException("no watched method exported"));
        require("method samples", e.methodSamples(), w.methodSamples());
        require("samples of the watched method's deployment", e.deploymentSamples(), w.samples());
        AlertingSnapshot.TaskSamples t = s.tasks().stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("no task exported"));
        require("task samples", e.taskSamples(), t.samples());
        AlertingSnapshot.TaskTime tt = s.taskTimes().stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("no task method time exported"));
        require("method samples in the task", e.taskMethodSamples(), tt.methodSamples());
    }

    /**
     * Starts the query service with the same configuration, its alerting clock at the dataset's
     * end, waits for the first refresh and scrapes {@code /metrics} over HTTP; checks the scrape.
     */
    private void scrape(GraphStoreConfig graph, Expected e, long now, StringBuilder out)
            throws IOException, InterruptedException {
        QueryServiceConfig service = QueryServiceConfig.defaults().with(Map.of(QueryServiceConfig.NEO4J_URI, graph.uri(),
                QueryServiceConfig.PORT, "0", QueryServiceConfig.ROLLUP_INTERVAL, "0"));
        Clock clock = Clock.offset(Clock.systemUTC(), Duration.ofMillis(now - System.currentTimeMillis()));
        try (QueryService running = QueryService.start(service, config, clock)) {
            ApiClient api = new ApiClient(running.port());
            long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
            ApiClient.TextCall first = api.getText("/metrics");
            while (value(first.body(), AlertingMetrics.LAST_REFRESH + " ", "") == null
                    || value(first.body(), AlertingMetrics.LAST_REFRESH + " ", "") == 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no refresh of /metrics within 10 minutes");
                }
                Thread.sleep(200);
                first = api.getText("/metrics");
            }
            String body = first.body();
            String v = "version=\"" + FleetDataset.version(1) + "\"";
            require("scraped deployment samples", e.deploymentSamples(),
                    longValue(body, MetricFamilies.DEPLOYMENT_SAMPLES + "{", v));
            require("scraped method samples", e.methodSamples(), longValue(body, MetricFamilies.METHOD_SAMPLES + "{", v));
            require("scraped task samples", e.taskSamples(), longValue(body, MetricFamilies.TASK_SAMPLES + "{", v));
            require("scraped method samples in the task", e.taskMethodSamples(),
                    longValue(body, MetricFamilies.TASK_METHOD_SAMPLES + "{", v));
            double ratio = value(body, MetricFamilies.METHOD_TIME + "{", v);
            if (Math.abs(ratio - (double) e.methodSamples() / e.deploymentSamples()) > 1e-9) {
                throw new IllegalStateException("scraped method time " + ratio + ", expected "
                        + (double) e.methodSamples() / e.deploymentSamples());
            }
            List<Double> scrapes = new ArrayList<>();
            for (int k = 0; k < SCRAPES; k++) {
                scrapes.add(api.getText("/metrics").millis());
            }
            long shifts = body.lines().filter(l -> l.startsWith(MetricFamilies.SHIFT + "{")).count();
            line(out, "service: first refresh took %.2f s (its gauge %s); scrape of /metrics over HTTP: %,d bytes,"
                    + " %s; checked: deployment, method, task and method-in-task samples of %s; %d shift series",
                    value(body, AlertingMetrics.REFRESH_DURATION + " ", ""), AlertingMetrics.REFRESH_DURATION,
                    body.length(),
                    new Timing("scrape", "", first.millis(), scrapes, 0.95, 1000).summary(), FleetDataset.version(1),
                    shifts);
        }
    }

    /**
     * Labels the highest corpus nodes of {@link #taskMethod} as roots of {@value #TASK} for the
     * fleet's service (as the samples job stores labels); returns how many.
     */
    private int labelTaskRoots(Driver driver, Map<Long, NodeRecord> topology, Set<Long> taskIds) {
        List<NodeTasks> roots = new ArrayList<>();
        for (NodeRecord n : topology.values()) {
            if (taskIds.contains(n.methodId()) && !onPath(topology, n.parentId(), taskIds)) {
                roots.add(new NodeTasks(FleetDataset.SERVICE, n.id(), List.of(TASK)));
            }
        }
        new GraphWriter(driver, "").writeNodeTasks(roots);
        return roots.size();
    }

    /**
     * The brute force: the stored fine windows of the newest deployment overlapping the trailing
     * window, as stored (self counts), each sample's leaf walked up the corpus topology.
     */
    private Expected expected(Driver driver, Map<Long, NodeRecord> topology, Set<Long> taskIds, Set<Long> watchedIds,
            long now) {
        List<String> keys = new ArrayList<>();
        for (int k = 0; k < dataset.instances(); k++) {
            if (FleetDataset.deploymentOf(k, dataset.instances(), dataset.deployments()) == 1) {
                keys.add(new ExecutionId(FleetDataset.SERVICE, FleetDataset.version(1), FleetDataset.instanceId(k)).key());
            }
        }
        long samples = 0;
        long method = 0;
        long task = 0;
        long methodInTask = 0;
        Map<Long, boolean[]> flags = new HashMap<>(); // node -> {method on path, task on path, method at or below task}
        WindowReader stored = WindowReader.asStored(driver, "");
        for (WindowCounts w : stored.windows(keys, now - options.alertingWindow().toMillis(), now)) {
            TreeCounts c = w.counts();
            for (int i = 0; i < c.nodeIds().length; i++) {
                long self = c.self()[i];
                if (self == 0) {
                    continue;
                }
                boolean[] f = flags.computeIfAbsent(c.nodeIds()[i], id -> pathFlags(topology, id, taskIds, watchedIds));
                samples += self;
                method += f[0] ? self : 0;
                task += f[1] ? self : 0;
                methodInTask += f[2] ? self : 0;
            }
        }
        long perDeployment = options.alertingWindow().toMillis() / dataset.windowMillis() * dataset.samplesPerWindow()
                * keys.size();
        require("brute-force samples of the stored windows", perDeployment, samples);
        return new Expected(samples, method, task, methodInTask);
    }

    /** Walks from {@code id} to the root: {watched method on the path, task method on it, watched at or below task}. */
    private static boolean[] pathFlags(Map<Long, NodeRecord> topology, long id, Set<Long> taskIds, Set<Long> watchedIds) {
        List<NodeRecord> path = new ArrayList<>();
        for (NodeRecord n = topology.get(id); n != null; n = topology.get(n.parentId())) {
            path.add(n);
        }
        if (path.isEmpty() && id != io.cctflow.core.NodeId.ROOT) {
            throw new IllegalStateException("stored node " + id + " is not in the corpus topology");
        }
        boolean[] f = new boolean[3];
        for (int i = path.size() - 1; i >= 0; i--) { // from the top
            long m = path.get(i).methodId();
            f[1] |= taskIds.contains(m);
            f[0] |= watchedIds.contains(m);
            f[2] |= f[1] && watchedIds.contains(m);
        }
        return f;
    }

    private static boolean onPath(Map<Long, NodeRecord> topology, long id, Set<Long> methodIds) {
        for (NodeRecord n = topology.get(id); n != null; n = topology.get(n.parentId())) {
            if (methodIds.contains(n.methodId())) {
                return true;
            }
        }
        return false;
    }

    /** Ids of every overload of {@code Class.method}. */
    private Set<Long> methodIds(String classDotMethod) {
        Set<Long> ids = new HashSet<>();
        for (MethodRecord m : stacks.methods()) {
            if ((m.className() + "." + m.methodName()).equals(classDotMethod)) {
                ids.add(m.id());
            }
        }
        return ids;
    }

    /** The value of the first sample line starting with {@code prefix} and containing {@code label}, or null. */
    private static Double value(String scrape, String prefix, String label) {
        return scrape.lines().filter(l -> l.startsWith(prefix) && l.contains(label)).findFirst()
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).orElse(null);
    }

    private static long longValue(String scrape, String prefix, String label) {
        Double v = value(scrape, prefix, label);
        if (v == null) {
            throw new IllegalStateException("the scrape holds no " + prefix + "..." + label + "...}");
        }
        return Math.round(v);
    }

    private static void require(String what, long expected, long actual) {
        if (expected != actual) {
            throw new IllegalStateException(what + ": " + actual + ", expected " + expected);
        }
    }

    /** Median and p95 of wall, CPU and heap over refreshes. */
    private static String describe(List<Refresh> rs) {
        return String.format("wall p50 %s p95 %s; CPU of the refreshing thread p50 %s, of the JVM (with Neo4j) p50 %s;"
                        + " allocated by the refreshing thread p50 %.0f MiB; heap peak above the post-GC baseline p50"
                        + " %.0f MiB, max %.0f MiB",
                Timing.format(q(rs, Refresh::wallMillis, 0.5)), Timing.format(q(rs, Refresh::wallMillis, 0.95)),
                Timing.format(q(rs, Refresh::threadCpuMillis, 0.5)), Timing.format(q(rs, Refresh::processCpuMillis, 0.5)),
                q(rs, r -> r.allocatedBytes() / 1048576.0, 0.5), q(rs, r -> r.heapPeakBytes() / 1048576.0, 0.5),
                q(rs, r -> r.heapPeakBytes() / 1048576.0, 1));
    }

    private static double q(List<Refresh> rs, java.util.function.ToDoubleFunction<Refresh> f, double p) {
        double[] sorted = rs.stream().mapToDouble(f).sorted().toArray();
        return io.cctflow.bench.overhead.Quantiles.at(sorted, p);
    }

    private static void line(StringBuilder out, String format, Object... args) {
        String s = String.format(format, args);
        System.out.println(s);
        out.append("- ").append(s).append('\n');
    }
}
