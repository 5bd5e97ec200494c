package io.cctflow.query.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import io.cctflow.core.task.TaskDefinition;
import io.cctflow.core.task.TaskLabeller;
import io.cctflow.core.task.TaskLabels;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeTasks;
import io.cctflow.servers.TestServers;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * The refresher against a real Neo4j filled by the graph-store writer: every exported number
 * equals the brute-force count over the same samples in memory, only the newest deployment of a
 * live service is exported, and the series stay within their bounds.
 */
class AlertingRefresherTest {
    private static final int ALPHABET = 8;
    private static final List<MethodRecord> METHODS = StoredProfiles.methods(ALPHABET);
    private static final long MINUTE = StoredProfiles.WINDOW_MILLIS;
    private static final long NOW = Instant.parse("2026-11-23T12:00:30Z").toEpochMilli();
    private static final long NOW_MINUTE = NOW - NOW % MINUTE;

    private static Driver driver;
    private static CatalogueReader catalogue;
    private static WindowReader windows;
    private static TopologyReader topology;
    private static StoredProfiles store;

    @BeforeAll
    static void connect() {
        driver = TestServers.get().newDriver();
        catalogue = new CatalogueReader(driver, "");
        windows = new WindowReader(driver, "");
        topology = new TopologyReader(driver, "");
        store = new StoredProfiles(new GraphWriter(driver, ""));
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @BeforeEach
    void clean() {
        TestServers.get().cleanNeo4j();
        GraphSchema.ensure(driver, "");
    }

    /** Writes a random profile as one window starting {@code minutesAgo} minutes before now's minute. */
    private static Profiles write(Random random, String service, String version, String instance, int minutesAgo,
            int stacks) {
        Profiles p = Profiles.random(random, stacks, 7, ALPHABET);
        store.write(new ExecutionId(service, version, instance), NOW_MINUTE - minutesAgo * MINUTE, p.tree(), METHODS);
        return p;
    }

    /** Writes a given profile as one window starting {@code minutesAgo} minutes before now's minute. */
    private static Profiles write(Profiles p, String service, String version, String instance, int minutesAgo) {
        store.write(new ExecutionId(service, version, instance), NOW_MINUTE - minutesAgo * MINUTE, p.tree(), METHODS);
        return p;
    }

    private static String name(long methodId) {
        return METHODS.stream().filter(m -> m.id() == methodId).findFirst().orElseThrow().signature();
    }

    @Test
    void exportsTheBruteForceNumbersOfTheNewestDeploymentsOfLiveServicesOnly() {
        for (long seed = 1; seed <= 3; seed++) {
            clean();
            Random random = new Random(seed);
            // checkout: v1 on two instances long ago, v2 now; windows outside each side's window as decoys
            write(random, "checkout", "v1", "a", 40, 60); // before v1's baseline window
            // v1's replicates are its instances, v2's (one instance) its windows; each deployment's
            // replicates repeat one profile, so the deployments differ beyond the replicates' noise
            Profiles v1Profile = Profiles.random(random, 60, 7, ALPHABET);
            List<Profiles> v1Parts = List.of(write(v1Profile, "checkout", "v1", "a", 30),
                    write(v1Profile, "checkout", "v1", "b", 29));
            Profiles v1 = Profiles.merged(v1Parts);
            write(random, "checkout", "v2", "c", 10, 60); // v2, but before the trailing window
            Profiles v2Profile = Profiles.random(random, 60, 7, ALPHABET);
            List<Profiles> v2Parts = List.of(write(v2Profile, "checkout", "v2", "c", 4),
                    write(v2Profile, "checkout", "v2", "c", 0));
            Profiles v2 = Profiles.merged(v2Parts);
            // cart: one deployment, live: no shifts
            Profiles cart = write(random, "cart", "v7", "d", 2, 40);
            // old: nothing in the trailing window: not exported at all
            write(random, "old", "v1", "e", 200, 40);
            write(random, "old", "v2", "e", 120, 40);
            // small: too few samples to compare
            Profiles small1 = new Profiles(List.<long[]>of(new long[] {Profiles.method(0)}), List.of(3L));
            Profiles small2 = new Profiles(List.<long[]>of(new long[] {Profiles.method(1)}), List.of(4L));
            store.write(new ExecutionId("small", "v1", "f"), NOW_MINUTE - 20 * MINUTE, small1.tree(), METHODS);
            store.write(new ExecutionId("small", "v2", "f"), NOW_MINUTE - 2 * MINUTE, small2.tree(), METHODS);

            AlertingConfig config = AlertingConfig.from(Map.of(AlertingConfig.WATCH,
                    "checkout:com.example.M1.run, checkout:com.example.Nope.run, cart:com.example.M2.run()V,"
                            + " old:com.example.M1.run",
                    AlertingConfig.TOP_K, "3", AlertingConfig.WINDOW, "5m", AlertingConfig.MIN_SAMPLES, "10"));
            AlertingSnapshot s = new AlertingRefresher(catalogue, windows, topology, config, Clock.fixed(Instant.ofEpochMilli(NOW),
                    ZoneOffset.UTC)).compute();

            assertThat(s.deployments()).as("seed %d", seed).containsExactlyInAnyOrder(
                    new AlertingSnapshot.DeploymentSamples("checkout", "v2", v2.samples()),
                    new AlertingSnapshot.DeploymentSamples("checkout", "v1", v1.samples()),
                    new AlertingSnapshot.DeploymentSamples("cart", "v7", cart.samples()),
                    new AlertingSnapshot.DeploymentSamples("small", "v2", 4),
                    new AlertingSnapshot.DeploymentSamples("small", "v1", 3));
            assertThat(s.watched()).as("seed %d", seed).containsExactlyInAnyOrder(
                    new AlertingSnapshot.WatchedTime("checkout", "v2", "com.example.M1.run",
                            v2.samplesWith(Profiles.method(1)), v2.samples()),
                    new AlertingSnapshot.WatchedTime("checkout", "v2", "com.example.Nope.run", 0, v2.samples()),
                    new AlertingSnapshot.WatchedTime("cart", "v7", "com.example.M2.run()V",
                            cart.samplesWith(Profiles.method(2)), cart.samples()));
            List<AlertingSnapshot.Shift> expected = new ArrayList<>();
            List<MethodShift> significant = Profiles.rankSignificant(v2Parts, v1Parts, ALPHABET);
            assertThat(significant).as("seed %d: random profiles differ beyond noise", seed).isNotEmpty();
            for (MethodShift x : significant.subList(0, Math.min(3, significant.size()))) {
                expected.add(new AlertingSnapshot.Shift("checkout", "v2", "v1", name(x.methodId()), x));
            }
            assertThat(s.shifts()).as("seed %d", seed).isEqualTo(expected);
        }
    }

    @Test
    void exportsWatchedMethodTimeRelativeToWatchedTasksAsCctCoreComputesIt() {
        for (long seed = 1; seed <= 3; seed++) {
            clean();
            Random random = new Random(seed);
            write(random, "checkout", "v1", "a", 30, 60); // the predecessor: not measured against tasks
            Profiles v2 = write(random, "checkout", "v2", "c", 4, 80).plus(write(random, "checkout", "v2", "d", 1, 80));
            Profiles cart = write(random, "cart", "v7", "e", 2, 40);
            // labels as the samples job stores them: per (service, task root), by cct-core's labeller
            Cct tree = v2.tree();
            TaskLabels labels = new TaskLabeller(id -> name(id).substring(0, name(id).indexOf('(')), List.of(
                    TaskDefinition.prefix("t3", "com.example.M3.run", "payment"),
                    TaskDefinition.prefix("t5", "com.example.M5.run", "search"))).label(tree);
            List<NodeTasks> stored = new ArrayList<>();
            for (int n = 1; n < tree.size(); n++) {
                List<String> rooted = new ArrayList<>(labels.taskNames(n));
                rooted.removeAll(labels.taskNames(tree.parent(n)));
                if (!rooted.isEmpty()) {
                    stored.add(new NodeTasks("checkout", tree.id(n), rooted));
                }
            }
            new GraphWriter(driver, "").writeNodeTasks(stored);

            AlertingConfig config = AlertingConfig.from(Map.of(AlertingConfig.WATCH,
                    "checkout:com.example.M1.run, checkout:com.example.M3.run, cart:com.example.M2.run",
                    AlertingConfig.TASKS, "checkout:payment, checkout:search, checkout:nothing, cart:payment",
                    AlertingConfig.WINDOW, "5m"));
            AlertingSnapshot s = new AlertingRefresher(catalogue, windows, topology, config, Clock.fixed(Instant.ofEpochMilli(NOW),
                    ZoneOffset.UTC)).compute();

            List<AlertingSnapshot.TaskSamples> tasks = new ArrayList<>();
            List<AlertingSnapshot.TaskTime> times = new ArrayList<>();
            for (String task : List.of("payment", "search", "nothing")) {
                Scope scope = Scope.ofTasks(labels, task);
                tasks.add(new AlertingSnapshot.TaskSamples("checkout", "v2", task, scope.rootSamples()));
                for (int m : new int[] {1, 3}) {
                    MethodTime t = MethodTime.of(scope, Profiles.method(m));
                    times.add(new AlertingSnapshot.TaskTime("checkout", "v2", task, "com.example.M" + m + ".run",
                            t.methodSamples(), t.scopeSamples()));
                }
            }
            tasks.add(new AlertingSnapshot.TaskSamples("cart", "v7", "payment", 0)); // no labels stored for cart
            times.add(new AlertingSnapshot.TaskTime("cart", "v7", "payment", "com.example.M2.run", 0, 0));
            assertThat(s.tasks()).as("seed %d", seed).containsExactlyInAnyOrderElementsOf(tasks);
            assertThat(s.taskTimes()).as("seed %d", seed).containsExactlyInAnyOrderElementsOf(times);
            // the task's own method takes all of the task's time; a task that labels sampled nodes has samples
            assertThat(s.taskTimes()).filteredOn(t -> t.task().equals("payment") && t.service().equals("checkout")
                    && t.method().equals("com.example.M3.run")).allMatch(t -> t.methodSamples() == t.taskSamples());
            assertThat(s.tasks()).filteredOn(t -> t.task().equals("payment") && t.service().equals("checkout"))
                    .allMatch(t -> t.samples() == v2.samplesWith(Profiles.method(3)));
            assertThat(cart.samples()).isPositive();
        }
    }

    @Test
    void seriesStayWithinTheirBoundsWhateverIsStored() {
        Random random = new Random(42);
        int services = 4;
        for (int svc = 0; svc < services; svc++) {
            for (int v = 0; v < 4; v++) { // four deployments each, one after the other, all in the window
                // two windows of the same counts each: the shift test labels nothing with one replicate
                Profiles p = write(random, "s" + svc, "v" + v, "i" + svc + v, 8 - 2 * v, 80);
                write(p, "s" + svc, "v" + v, "i" + svc + v, 7 - 2 * v);
            }
        }
        int k = 2;
        AlertingConfig config = AlertingConfig.from(Map.of(AlertingConfig.TOP_K, String.valueOf(k),
                AlertingConfig.MIN_SAMPLES, "1", AlertingConfig.WATCH, "s0:com.example.M0.run"));
        AlertingSnapshot s = new AlertingRefresher(catalogue, windows, topology, config, Clock.fixed(Instant.ofEpochMilli(NOW),
                ZoneOffset.UTC)).compute();

        assertThat(s.shifts()).hasSize(services * k)
                .allMatch(x -> x.version().equals("v3") && x.baselineVersion().equals("v2"));
        assertThat(s.deployments()).hasSize(services * 2);
        assertThat(s.watched()).hasSize(1).allMatch(w -> w.version().equals("v3"));
    }
}
