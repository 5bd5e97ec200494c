package io.cctflow.graph;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.DeploymentRecord;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.servers.TestServers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * Two writers at once, as the samples job's sink subtasks write: instances of one deployment (each
 * execution on one subtask) and the same methods, each subtask in its own order. With the driver's
 * retries off, a deadlock between them reaches the test instead of costing a backoff. Before the
 * writes were ordered, a probe of this shape saw 91 of 200 instance writes and 71 of 200 method
 * writes deadlock.
 */
class ConcurrentWritersTest extends CleanGraph {
    private static final int ROUNDS = 30;

    private final List<Driver> drivers = new ArrayList<>();
    private ExecutorService pool;

    @BeforeEach
    void openWriters() {
        TestServers servers = TestServers.get();
        GraphStoreConfig config = new GraphStoreConfig(servers.neo4jUri(), servers.neo4jUser(),
                servers.neo4jPassword(), "");
        drivers.add(config.openDriver(Duration.ZERO));
        drivers.add(config.openDriver(Duration.ZERO));
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterEach
    void closeWriters() {
        pool.shutdownNow();
        drivers.forEach(Driver::close);
    }

    @Test
    void instancesOfOneDeploymentWrittenByTwoWritersAtOnceDoNotDeadlockAndSpanTheirSamples() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            long first = 60_000L * round;
            int created = round % 10; // ten rounds of new instances, then the same ones again
            bothAtOnce(writer -> () -> {
                List<InstanceRecord> mine = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    mine.add(new InstanceRecord("svc", "v1", "w" + writer + "-" + (created * 50 + i), "h", i, 0,
                            Map.of(), first + i, first + 59_000 - i));
                }
                Collections.shuffle(mine, new Random(writer));
                new GraphWriter(drivers.get(writer), "").writeInstances(mine);
                return null;
            });
        }
        assertThat(catalogue.deployments("svc")).containsExactly(
                new DeploymentRecord("svc", "v1", 0, 60_000L * (ROUNDS - 1) + 59_000, 1_000));
        InstanceRecord last = catalogue.instances("svc").stream()
                .filter(i -> i.instanceId().equals("w1-499")).findFirst().orElseThrow();
        // written in rounds 9, 19 and 29 (i = 49): the earliest first sample, the latest last one
        assertThat(last.firstSampleMillis()).isEqualTo(60_000L * 9 + 49);
        assertThat(last.lastSampleMillis()).isEqualTo(60_000L * 29 + 59_000 - 49);
    }

    @Test
    void theSameNewMethodsWrittenByTwoWritersAtOnceInTheirOwnOrdersDoNotDeadlock() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            int from = round * 50; // 50 new methods a round, 150 of earlier rounds
            int r = round;
            bothAtOnce(writer -> () -> {
                List<MethodRecord> methods = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    methods.add(MethodRecord.of("C" + (from + i), "m", "()V"));
                }
                Collections.shuffle(methods, new Random(r * 2L + writer));
                new GraphWriter(drivers.get(writer), "").writeMethods(methods);
                return null;
            });
        }
        try (var session = driver.session()) {
            assertThat(session.run("MATCH (m:Method) RETURN count(m) AS c").single().get("c").asLong())
                    .isEqualTo(50L * (ROUNDS - 1) + 200);
        }
    }

    /** Runs each writer's task (by writer index) at the same time; rethrows the first failure. */
    private void bothAtOnce(java.util.function.IntFunction<Callable<Void>> task) throws Exception {
        List<Future<Void>> futures = new ArrayList<>();
        for (int w = 0; w < drivers.size(); w++) {
            futures.add(pool.submit(task.apply(w)));
        }
        for (Future<Void> f : futures) {
            f.get(); // an ExecutionException carries the driver's TransientException (deadlock)
        }
    }
}
