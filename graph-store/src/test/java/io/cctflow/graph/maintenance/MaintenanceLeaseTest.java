package io.cctflow.graph.maintenance;

import io.cctflow.graph.RandomTrees;
import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.Resolution;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import io.cctflow.servers.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.neo4j.driver.Driver;

/** The roll-up lease of several query-service replicas, on the real Neo4j. */
class MaintenanceLeaseTest {
    private static final long T0 = 1_700_006_400_000L; // a UTC midnight
    private static final long WINDOW = 15 * 60_000L;
    private static final Duration TTL = Duration.ofSeconds(60);
    private static Driver driver;

    @BeforeAll
    static void connect() {
        driver = TestServers.get().newDriver();
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

    private static MaintenanceLease lease(String holder) {
        return new MaintenanceLease(driver, "", "rollup", holder, TTL);
    }

    @Test
    void oneHolderUntilItsLeaseExpiresOrIsReleased() {
        MaintenanceLease a = lease("a");
        MaintenanceLease b = lease("b");
        long t = T0;

        assertThat(a.tryAcquire(t)).isTrue();
        assertThat(b.tryAcquire(t + 10_000)).isFalse();
        assertThat(a.tryAcquire(t + 20_000)).as("renewed until t + 80 s").isTrue();
        assertThat(b.tryAcquire(t + 79_999)).isFalse();
        assertThat(b.tryAcquire(t + 80_000)).as("expired: a stopped renewing").isTrue();
        assertThat(a.tryAcquire(t + 80_001)).isFalse();
        a.release(); // not the holder: changes nothing
        assertThat(a.tryAcquire(t + 80_002)).isFalse();
        b.release();
        assertThat(a.tryAcquire(t + 80_003)).as("released: taken at once").isTrue();
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (l:MaintenanceLease) RETURN count(l) AS c").single().get("c").asLong())
                    .isEqualTo(1);
        }
    }

    /**
     * Two schedulers, each with its own driver, lease and roll-up pass, try at the same moment in
     * every round, while late fine windows keep arriving: exactly one of them runs each round's
     * pass, never both at once, and the roll-ups equal the fine windows' sums at the end.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void twoSchedulersNeverRunAPassAtOnceAndTheRollUpsStayExact() throws Exception {
        List<WindowCounts> fine = new ArrayList<>();
        GraphWriter feeder = new GraphWriter(driver, "");
        Random random = new Random(3);
        List<String> keys = List.of(new ExecutionId("svc", "v1", "a").key(), new ExecutionId("svc", "v1", "b").key());
        for (String key : keys) {
            ExecutionId e = ExecutionId.fromKey(key);
            feeder.writeInstances(List.of(new InstanceRecord(e.service(), e.version(), e.instance(), "h", 1, T0,
                    Map.of(), T0, T0 + 6 * Resolution.HOUR.millis())));
        }
        int rounds = 12;
        CyclicBarrier attempt = new CyclicBarrier(2);
        CyclicBarrier attempted = new CyclicBarrier(2, () -> writeLateWindows(feeder, fine, keys, random));
        CyclicBarrier done = new CyclicBarrier(2);
        AtomicIntegerArray winners = new AtomicIntegerArray(rounds);
        AtomicInteger inside = new AtomicInteger();
        AtomicBoolean overlapped = new AtomicBoolean();
        int[] passes = new int[2];
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<?>> schedulers = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            int id = s;
            schedulers.add(pool.submit(() -> {
                try (Driver own = TestServers.get().newDriver()) {
                    MaintenanceLease lease = new MaintenanceLease(own, "", "rollup", "replica-" + id, TTL);
                    Rollups rollups = new Rollups(own, "", Duration.ofMinutes(10));
                    boolean stopped = false;
                    for (int round = 0; round < rounds; round++) {
                        attempt.await(1, TimeUnit.MINUTES);
                        // a replica that released its lease (as one that stops) sits out the next round
                        boolean won = !stopped && lease.tryAcquire(System.currentTimeMillis());
                        stopped = false;
                        if (won) {
                            winners.incrementAndGet(round);
                        }
                        attempted.await(1, TimeUnit.MINUTES);
                        if (won) {
                            if (inside.incrementAndGet() != 1) {
                                overlapped.set(true);
                            }
                            rollups.rollUp(T0 + 3 * Resolution.DAY.millis());
                            passes[id]++;
                            inside.decrementAndGet();
                            if (round % 3 == 2) {
                                lease.release(); // as a replica that stops: the other wins the next round
                                stopped = true;
                            }
                        }
                        done.await(1, TimeUnit.MINUTES);
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : schedulers) {
            f.get(4, TimeUnit.MINUTES);
        }
        pool.shutdown();

        for (int round = 0; round < rounds; round++) {
            assertThat(winners.get(round)).as("winners of round %d", round).isEqualTo(1);
        }
        assertThat(overlapped).isFalse();
        assertThat(passes[0] + passes[1]).isEqualTo(rounds);
        assertThat(passes).as("released leases pass to the other replica").doesNotContain(0);
        WindowReader reader = new WindowReader(driver, "");
        List<WindowCounts> hours = reader.windowsStartingIn(Resolution.HOUR, T0 - Resolution.DAY.millis(),
                T0 + Resolution.DAY.millis());
        assertThat(hours).hasSize(2 * 6);
        for (WindowCounts h : hours) {
            List<WindowCounts> parts = fine.stream().filter(f -> f.executionKey().equals(h.executionKey())
                    && f.windowStartMillis() >= h.windowStartMillis() && f.windowStartMillis() < h.windowEndMillis())
                    .toList();
            assertThat(h.counts()).as("%s at %d", h.executionKey(), h.windowStartMillis())
                    .isEqualTo(WindowReader.sum(parts));
        }
    }

    /** New or rewritten (late) fine windows over six hours from T0; {@code fine} keeps the latest of each. */
    private static void writeLateWindows(GraphWriter writer, List<WindowCounts> fine, List<String> keys, Random random) {
        List<WindowCounts> batch = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String key = keys.get(random.nextInt(keys.size()));
            long start = T0 + random.nextInt(24) * WINDOW;
            Cct tree = new Cct();
            int thread = tree.thread("main");
            for (int s = 0; s < 1 + random.nextInt(4); s++) {
                long[] methods = {1 + random.nextInt(3), 1 + random.nextInt(3), 1 + random.nextInt(3)};
                tree.addStack(methods, new int[3], 1 + random.nextInt(3), thread, 1 + random.nextInt(9));
            }
            writer.writeNodes(new ArrayList<>(RandomTrees.topology(tree).values())); // readers expand windows with it
            WindowCounts w = new WindowCounts(key, start, start + WINDOW, TreeCounts.of(tree), TruncationCounts.NONE);
            fine.removeIf(f -> f.executionKey().equals(key) && f.windowStartMillis() == start);
            fine.add(w);
            batch.add(w);
        }
        writer.writeWindowCounts(batch);
        if (fine.size() < 2 * 24) { // first round: every window of six hours of both instances
            for (String key : keys) {
                for (long start = T0; start < T0 + 6 * Resolution.HOUR.millis(); start += WINDOW) {
                    long s = start;
                    if (fine.stream().noneMatch(f -> f.executionKey().equals(key) && f.windowStartMillis() == s)) {
                        Cct tree = new Cct();
                        tree.addStack(new long[] {1, 2}, new int[2], 2, tree.thread("main"), 1 + random.nextInt(5));
                        writer.writeNodes(new ArrayList<>(RandomTrees.topology(tree).values()));
                        WindowCounts w = new WindowCounts(key, s, s + WINDOW, TreeCounts.of(tree),
                                TruncationCounts.NONE);
                        fine.add(w);
                        writer.writeWindowCounts(List.of(w));
                    }
                }
            }
        }
    }
}
