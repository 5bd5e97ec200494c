package io.cctflow.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.WindowCounts;
import io.cctflow.servers.TestServers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * Latency probes against a real Neo4j: random batches of several executions into several job
 * windows, some probed; windows stored holding a random part of their samples; after one poll
 * exactly the acknowledged probes whose window holds every sample up to theirs are measured, as a
 * brute force over the batches says, and the rest wait or time out.
 */
class LatencyProbesTest {
    private static final long WINDOW = 60_000;
    private static final long T0 = 1_700_006_400_000L;
    private static Driver driver;

    /** A probed batch and what the brute force knows of it. */
    private record Probed(LatencyProbes.Probe probe, String key, long windowStart, long samplesUpToIt, boolean acked) {
    }

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

    @Test
    void aProbeIsMeasuredExactlyWhenItsWindowHoldsEverySampleUpToIt() {
        for (int round = 0; round < 3; round++) {
            TestServers.get().cleanNeo4j();
            GraphSchema.ensure(driver, "");
            Random random = new Random(71 + round);
            LatencyProbes probes = new LatencyProbes(WINDOW, TimeUnit.HOURS.toMillis(1));
            Map<String, Long> sent = new HashMap<>(); // (execution, window) -> samples sent into it
            List<Probed> probed = new ArrayList<>();
            List<String> keys = List.of(new ExecutionId("svc", "v1", "a").key(), new ExecutionId("svc", "v1", "b").key(),
                    new ExecutionId("svc", "v2", "c").key());
            for (String key : keys) {
                // batches in time order, each in the window its start falls in, not always at its start
                long t = T0 + random.nextInt(30_000);
                for (int b = 0; b < 40; b++) {
                    long windowStart = t - Math.floorMod(t, WINDOW);
                    long samples = 1 + random.nextInt(50);
                    long total = sent.merge(key + "@" + windowStart, samples, Long::sum);
                    if (random.nextInt(3) == 0) {
                        LatencyProbes.Probe p = probes.expect(key, t, samples);
                        boolean acked = random.nextInt(5) != 0;
                        if (acked) {
                            p.acked(System.nanoTime());
                        }
                        probed.add(new Probed(p, key, windowStart, total, acked));
                    } else {
                        probes.count(key, t, samples);
                    }
                    t += 5_000 + random.nextInt(20_000);
                }
            }
            // store each window holding all, none or a random part of what was sent into it
            Map<String, Long> stored = new HashMap<>();
            List<WindowCounts> windows = new ArrayList<>();
            for (Map.Entry<String, Long> e : sent.entrySet()) {
                int choice = random.nextInt(3);
                if (choice == 0) {
                    continue;
                }
                long samples = choice == 1 ? e.getValue() : 1 + random.nextInt((int) (long) e.getValue());
                String key = e.getKey().substring(0, e.getKey().lastIndexOf('@'));
                long start = Long.parseLong(e.getKey().substring(e.getKey().lastIndexOf('@') + 1));
                windows.add(window(key, start, samples, random));
                stored.put(e.getKey(), samples);
            }
            new GraphWriter(driver, "").writeWindowCounts(windows);

            probes.poll(WindowReader.asStored(driver, ""));
            LatencyProbes.Result result = probes.drain();

            long measurable = probed.stream().filter(p -> p.acked()
                    && stored.getOrDefault(p.key() + "@" + p.windowStart(), 0L) >= p.samplesUpToIt()).count();
            assertThat(measurable).as("round %d: some probes measurable, some not", round)
                    .isPositive().isLessThan(probed.size());
            assertThat(result.latenciesMillis()).as("round %d", round).hasSize((int) measurable);
            assertThat(result.timedOut()).isZero();
            assertThat(result.stillWaiting()).isEqualTo(probed.size() - (int) measurable);
        }
    }

    @Test
    void anAcknowledgedProbeNeverReadableTimesOutAndAnUnacknowledgedOneWaits() {
        LatencyProbes probes = new LatencyProbes(WINDOW, 1);
        String key = new ExecutionId("svc", "v1", "a").key();
        LatencyProbes.Probe late = probes.expect(key, T0, 10);
        late.acked(System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(10)); // acknowledged past the 1 ms timeout
        probes.expect(key, T0 + 1, 5); // never acknowledged
        new GraphWriter(driver, "").writeWindowCounts(List.of(window(key, T0, 8, new Random(3))));
        probes.poll(WindowReader.asStored(driver, ""));
        LatencyProbes.Result result = probes.drain();
        assertThat(result.latenciesMillis()).isEmpty();
        assertThat(result.timedOut()).as("8 stored of the 10 sent up to the acknowledged probe").isEqualTo(1);
        assertThat(result.stillWaiting()).isEqualTo(1);
    }

    @Test
    void aPhaseCountsTheBatchesAcknowledgedInItAndLeavesTheEarlierOnesToDrain() {
        LatencyProbes probes = new LatencyProbes(WINDOW, TimeUnit.HOURS.toMillis(1));
        String key = new ExecutionId("svc", "v1", "phase").key();
        String other = new ExecutionId("svc", "v1", "phase-other").key();
        long phaseStart = System.nanoTime();
        // acknowledged in the warm-up 20 s before the phase, readable only once the phase has started
        probes.expect(key, T0, 10).acked(phaseStart - TimeUnit.SECONDS.toNanos(20));
        probes.expect(key, T0 + 1, 5).acked(phaseStart); // in the phase: 15 samples up to it
        probes.expect(other, T0, 7).acked(phaseStart - 1); // in the warm-up, never readable
        probes.expect(other, T0 + 1, 1); // not acknowledged yet: the phase's
        new GraphWriter(driver, "").writeWindowCounts(List.of(window(key, T0, 15, new Random(5))));
        probes.poll(WindowReader.asStored(driver, ""));

        LatencyProbes.Result phase = probes.drainAckedSince(phaseStart);
        assertThat(phase.latenciesMillis()).hasSize(1).allMatch(ms -> ms < 20_000);
        assertThat(phase.stillWaiting()).isEqualTo(1);
        LatencyProbes.Result warmup = probes.drainAckedBefore(phaseStart);
        assertThat(warmup.latenciesMillis()).hasSize(1).allMatch(ms -> ms >= 20_000);
        assertThat(warmup.stillWaiting()).isEqualTo(1);
        LatencyProbes.Result rest = probes.drain();
        assertThat(rest.latenciesMillis()).as("drained once").isEmpty();
        assertThat(rest.stillWaiting()).as("every outstanding probe").isEqualTo(2);
    }

    /** A stored job window of {@code key} whose self counts sum to {@code samples}, over a few stacks. */
    private static WindowCounts window(String key, long start, long samples, Random random) {
        Cct tree = new Cct();
        long left = samples;
        while (left > 0) {
            long n = left == 1 ? 1 : 1 + random.nextInt((int) Math.min(left, 20));
            int leaf = 2 + random.nextInt(4);
            tree.addStack(new long[] {1, leaf, 10 + leaf}, new int[] {0, 3, 7}, 1 + random.nextInt(3), n);
            left -= n;
        }
        return new WindowCounts(key, start, start + WINDOW, TreeCounts.of(tree));
    }
}
