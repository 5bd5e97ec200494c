package io.cctflow.standalone.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cctflow.core.ExecutionId;
import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import io.cctflow.standalone.e2e.SplitAnswers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.neo4j.driver.Driver;

/**
 * The cluster of separate processes under {@code kill -9}: a fixed set of pre-generated batches
 * is fed in four parts while a TaskManager, a Kafka broker and the JobManager are killed, and
 * after each failure the stored samples of every (instance, minute) must equal, number for number,
 * what the batches sent so far hold: what a failure-free run stores (no batch lost, none counted
 * twice). Then the workload of
 * {@code EndToEndTest} runs with the shipped agent against the recovered cluster, and both query
 * services must give the answers that test expects on the MiniCluster. Last, one query service is
 * killed and the other keeps answering. Long (minutes); part of {@code mvn verify},
 * {@code -Dcluster-faults.skip=true} leaves it out.
 */
class ClusterFailuresIT {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    @Timeout(value = 40, unit = TimeUnit.MINUTES)
    void survivesKilledTaskManagerBrokerJobManagerAndQueryService() throws Exception {
        Path data = Path.of(System.getProperty("cctflow.clusterData", "target/cluster-failures")).toAbsolutePath();
        io.cctflow.servers.internal.Directories.deleteRecursively(data);
        ClusterOptions options = new ClusterOptions(false, data, Path.of(System.getProperty("cctflow.jobJar")),
                Path.of(System.getProperty("cctflow.queryJar")), 18380, 2);
        long t0 = System.nanoTime();
        FixedBatches input = new FixedBatches(26, 4, 60); // 4 instances x 10 minutes, 240 batches
        int quarter = input.batches.size() / 4;
        String topic = SamplesJobConfig.defaults().samplesTopic();
        try (Cluster cluster = Cluster.start(options, what -> log(t0, what))) {
            log(t0, "up; resident MiB " + cluster.rssMib());
            String kafka = cluster.kafka().bootstrapServers();

            input.send(kafka, topic, 0, quarter);
            Set<String> busy = cluster.flink().rest().taskManagersOf(cluster.jobId());
            ChildJvm tm = cluster.flink().taskManagers().stream().filter(t -> busy.contains(t.name())).findFirst()
                    .orElseThrow(() -> new AssertionError("no TaskManager runs the job's subtasks: " + busy));
            log(t0, "the job's subtasks run on " + busy);
            tm.kill();
            log(t0, "kill -9 " + tm + " after " + quarter + " batches");
            input.send(kafka, topic, quarter, 2 * quarter);
            awaitRestartedAndRunning(cluster, 1);
            tm.restart();
            log(t0, "job restarted from its last checkpoint (restarts: "
                    + cluster.flink().rest().restarts(cluster.jobId()) + "); " + tm.name() + " started again");
            assertStoredEqualsFailureFree(cluster, input, 2 * quarter, t0);

            ChildJvm broker = cluster.kafka().nodes().get(1);
            broker.kill();
            log(t0, "kill -9 " + broker + "; sending the third quarter under acks=all, min.insync.replicas 2");
            input.send(kafka, topic, 2 * quarter, 3 * quarter);
            broker.restart();
            cluster.kafka().awaitBrokers(KafkaCluster.NODES, Duration.ofMinutes(5));
            log(t0, broker.name() + " started again and rejoined");
            assertStoredEqualsFailureFree(cluster, input, 3 * quarter, t0);

            ChildJvm jm = cluster.flink().jobManager();
            jm.kill();
            log(t0, "kill -9 " + jm + " (no HA: the job dies with it); sending the last quarter while it is down");
            input.send(kafka, topic, 3 * quarter, input.batches.size());
            jm.restart();
            cluster.flink().awaitSlots(Cluster.TASK_MANAGERS * FlinkCluster.SLOTS_PER_TASK_MANAGER, Duration.ofMinutes(5));
            cluster.submitJob(); // from the newest retained checkpoint
            log(t0, "JobManager started again, job resubmitted from the newest retained checkpoint");
            assertStoredEqualsFailureFree(cluster, input, input.batches.size(), t0);

            // the answers EndToEndTest checks on the MiniCluster, now from this cluster, through both replicas
            SplitAnswers split = new SplitAnswers(kafka, topic, new ExecutionId("cluster-split", "1.0", "child-1"));
            split.runWorkload();
            log(t0, "the split workload ran with the shipped agent; asking both query services");
            for (int port : cluster.queryPorts()) {
                URI api = URI.create("http://127.0.0.1:" + port);
                await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(2))
                        .untilAsserted(() -> split.checkAWork(api)); // the job writes open windows every few seconds
                split.checkRecursion(api);
            }
            log(t0, "both query services gave the answers EndToEndTest expects (A.work 3/4 ± 0.08, equal to cct-core's)");
            // the resubmitted job has now replayed from its checkpoint and taken new data: still nothing doubled
            assertStoredEqualsFailureFree(cluster, input, input.batches.size(), t0);

            ChildJvm first = cluster.queryServices().get(0);
            first.kill();
            int other = cluster.queryPorts().get(1);
            assertThat(get(other, "/readyz").statusCode()).isEqualTo(200);
            HttpResponse<String> services = get(other, "/api/v1/services");
            assertThat(services.statusCode()).isEqualTo(200);
            assertThat(services.body()).contains("\"" + FixedBatches.SERVICE + "\"");
            log(t0, "kill -9 " + first + "; the other replica answered /api/v1/services: " + services.body());
        }
    }

    /**
     * The stored samples of every (instance, minute) equal, number for number, what a failure-free
     * run stores once batches {@code [0, sent)} are in.
     */
    private static void assertStoredEqualsFailureFree(Cluster cluster, FixedBatches input, int sent, long t0)
            throws InterruptedException {
        Map<String, Long> expected = input.expectedUpTo(sent);
        Map<String, Long> stored = awaitStored(cluster.boltUri(), expected, Duration.ofMinutes(10));
        log(t0, "stored " + total(stored) + " samples in " + stored.size() + " (instance, minute) windows; a failure-free"
                + " run of the first " + sent + " batches stores " + total(expected) + " in " + expected.size());
        assertThat(stored).isEqualTo(expected);
    }

    private static void awaitRestartedAndRunning(Cluster cluster, long restarts) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline) {
            if (cluster.flink().rest().restarts(cluster.jobId()) >= restarts
                    && cluster.flink().rest().jobState(cluster.jobId()).equals("RUNNING")) {
                return;
            }
            Thread.sleep(1000); // polling the job's state
        }
        throw new AssertionError("the job did not restart after the TaskManager died");
    }

    /** Samples stored per (instance, window), read back from Neo4j until they equal {@code expected} or time is up. */
    private static Map<String, Long> awaitStored(String boltUri, Map<String, Long> expected, Duration timeout)
            throws InterruptedException {
        GraphStoreConfig graph = new GraphStoreConfig(boltUri, "", "", "");
        Map<String, Long> stored = Map.of();
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Driver driver = graph.openDriver()) {
            WindowReader reader = new WindowReader(driver, "");
            while (System.nanoTime() < deadline) {
                stored = new TreeMap<>();
                for (WindowCounts w : reader.windowsStartingIn(Resolution.FINE, FixedBatches.T0 - 60_000,
                        FixedBatches.T0 + 3_600_000)) {
                    String instance = ExecutionId.fromKey(w.executionKey()).instance();
                    ((TreeMap<String, Long>) stored).merge(instance + "@" + w.windowStartMillis(),
                            Arrays.stream(w.counts().self()).sum(), Long::sum);
                }
                if (stored.equals(expected)) {
                    return stored;
                }
                Thread.sleep(2000); // the job writes open windows every few seconds
            }
        }
        return stored;
    }

    private static long total(Map<String, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void log(long t0, String what) {
        System.out.printf("[%6.1f s] %s%n", (System.nanoTime() - t0) / 1e9, what);
    }
}
