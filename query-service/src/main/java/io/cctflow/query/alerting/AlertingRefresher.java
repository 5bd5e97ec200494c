package io.cctflow.query.alerting;

import io.cctflow.core.Cct;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.api.MethodSelector;
import io.cctflow.query.api.SideReplicates;
import io.cctflow.query.api.TaskNodes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Computes an {@link AlertingSnapshot} from Neo4j with cct-core. Per service:
 * <ul>
 *   <li>the newest deployment ({@link Deployment#newestPairs}) over the trailing window
 *       {@code [now - window, now)}; a service with no samples in it is not live and exports nothing;
 *   <li>its watched methods: recursion-aware method time ({@link MethodTime}) of all overloads the
 *       entry names, over that window;
 *   <li>its watched tasks: the samples through each task's roots (the highest nodes labelled with
 *       it, labels as the samples job stored them), and each watched method's time relative to
 *       them ({@link Scope#below}, seed 002 Eq. 3.23-3.25);
 *   <li>the predecessor over the window that ends at its own last sample (or now, if earlier), so
 *       the baseline stays put after the old version is gone; and the top-K significant shifts
 *       between the two ({@link ShiftRanking}: the compare endpoint's test at a false discovery
 *       rate of 5 %, the noise estimated from each deployment's instances or windows when it has
 *       several), when both windows hold at least {@code minSamples}.
 * </ul>
 * Each deployment's fine windows are read as stored and summed per instance and time slot before
 * anything is made whole ({@link DeploymentCounts}): one walk per instance, not an expansion per
 * window.
 * Shifts use the recursion-aware per-method samples of those sums ({@link TreeCounts}); the tree
 * is rebuilt ({@link TopologyReader#rebuild}) only for a service with watched methods or tasks.
 * Not thread-safe: one refresh at a time (the background loop guarantees it).
 */
public final class AlertingRefresher {
    private final CatalogueReader catalogue;
    private final WindowReader windows;
    private final TopologyReader topology;
    private final AlertingConfig config;
    private final Clock clock;

    public AlertingRefresher(CatalogueReader catalogue, WindowReader windows, TopologyReader topology,
            AlertingConfig config, Clock clock) {
        this.catalogue = catalogue;
        this.windows = windows;
        this.topology = topology;
        this.config = config;
        this.clock = clock;
    }

    /**
     * One refresh: a few Neo4j reads per service (one per {@value DeploymentCounts#CHUNK} instances
     * of a deployment). Throws what the driver throws.
     */
    public AlertingSnapshot compute() {
        long now = clock.millis();
        long window = config.window().toMillis();
        List<AlertingSnapshot.WatchedTime> watched = new ArrayList<>();
        List<AlertingSnapshot.DeploymentSamples> samples = new ArrayList<>();
        List<AlertingSnapshot.Shift> shifts = new ArrayList<>();
        List<AlertingSnapshot.TaskSamples> tasks = new ArrayList<>();
        List<AlertingSnapshot.TaskTime> taskTimes = new ArrayList<>();
        for (Deployment.Pair pair : Deployment.newestPairs(catalogue.instances(null))) {
            Deployment current = pair.newest();
            DeploymentCounts currentCounts = DeploymentCounts.read(windows, topology, current.executionKeys(),
                    now - window, now);
            long total = currentCounts.samples();
            if (total == 0) {
                continue;
            }
            samples.add(new AlertingSnapshot.DeploymentSamples(current.service(), current.version(), total));
            TreeCounts counts = currentCounts.sum();
            Cct tree = null; // rebuilt only for watched methods and tasks: they need the topology
            Map<WatchedMethod, Set<Long>> overloads = new LinkedHashMap<>();
            for (WatchedMethod w : config.watch()) {
                if (w.service().equals(current.service())) {
                    tree = tree != null ? tree : topology.rebuild(counts);
                    overloads.put(w, methodIds(w.method()));
                    MethodTime time = MethodTime.of(Scope.whole(tree), overloads.get(w)::contains);
                    watched.add(new AlertingSnapshot.WatchedTime(current.service(), current.version(),
                            w.method().toString(), time.methodSamples(), time.scopeSamples()));
                }
            }
            Map<Long, List<String>> labels = null;
            for (WatchedTask t : config.tasks()) {
                if (t.service().equals(current.service())) {
                    tree = tree != null ? tree : topology.rebuild(counts);
                    labels = labels != null ? labels : TaskNodes.labels(topology, current.service(), tree);
                    Scope scope = Scope.below(tree, TaskNodes.carrying(tree, labels, Set.of(t.task()), new HashSet<>()));
                    tasks.add(new AlertingSnapshot.TaskSamples(current.service(), current.version(), t.task(),
                            scope.rootSamples()));
                    for (Map.Entry<WatchedMethod, Set<Long>> w : overloads.entrySet()) {
                        MethodTime time = MethodTime.of(scope, w.getValue()::contains);
                        taskTimes.add(new AlertingSnapshot.TaskTime(current.service(), current.version(), t.task(),
                                w.getKey().method().toString(), time.methodSamples(), time.scopeSamples()));
                    }
                }
            }
            Deployment baseline = pair.predecessor();
            if (baseline == null) {
                continue;
            }
            long end = Math.min(now, baseline.lastSampleMillis() + 1);
            DeploymentCounts baselineCounts = DeploymentCounts.read(windows, topology, baseline.executionKeys(),
                    end - window, end);
            long baseTotal = baselineCounts.samples();
            if (baseTotal == 0) {
                continue;
            }
            samples.add(new AlertingSnapshot.DeploymentSamples(baseline.service(), baseline.version(), baseTotal));
            if (total < config.minSamples() || baseTotal < config.minSamples()) {
                continue;
            }
            SideReplicates.Pair replicates = SideReplicates.pair(currentCounts.replicates(),
                    baselineCounts.replicates());
            List<MethodShift> top = ShiftRanking.significant(replicates.a(), replicates.b(),
                    MethodComparison.DEFAULT_LEVEL, config.topK());
            Map<Long, String> names = catalogue.methodsById(top.stream().map(MethodShift::methodId).toList()).stream()
                    .collect(Collectors.toMap(MethodRecord::id, MethodRecord::signature, (a, b) -> a));
            for (MethodShift s : top) {
                String name = names.getOrDefault(s.methodId(), "unknown-method-" + Long.toUnsignedString(s.methodId(), 16));
                shifts.add(new AlertingSnapshot.Shift(current.service(), current.version(), baseline.version(), name, s));
            }
        }
        return new AlertingSnapshot(watched, samples, shifts, tasks, taskTimes);
    }

    private Set<Long> methodIds(MethodSelector m) {
        return catalogue.methods(m.className(), m.methodName(), m.descriptor()).stream().map(MethodRecord::id)
                .collect(Collectors.toSet());
    }
}
