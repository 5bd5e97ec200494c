package io.cctflow.query.alerting;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.WindowCounts;
import io.cctflow.query.api.SideReplicates;
import io.cctflow.servers.TestServers;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * Summing stored windows before making them whole gives what summing them whole gives: random
 * profiles (recursion included) of several instances and minutes, read in chunks smaller than the
 * instances, against {@link SideReplicates#of(List)} and {@link WindowReader#sum} of the same
 * windows read whole, window by window.
 */
class DeploymentCountsTest {
    private static final int ALPHABET = 6;
    private static final List<MethodRecord> METHODS = StoredProfiles.methods(ALPHABET);
    private static final long MINUTE = StoredProfiles.WINDOW_MILLIS;
    private static final long NOW = 1_800_000_000_000L - 1_800_000_000_000L % MINUTE;

    private static Driver driver;

    @BeforeAll
    static void connect() {
        driver = TestServers.get().newDriver();
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @Test
    void equalsTheSumsOfTheWindowsReadWhole() {
        for (long seed = 1; seed <= 4; seed++) {
            TestServers.get().cleanNeo4j();
            GraphSchema.ensure(driver, "");
            Random random = new Random(seed);
            StoredProfiles store = new StoredProfiles(new GraphWriter(driver, ""));
            List<String> keys = new ArrayList<>();
            int instances = 2 + random.nextInt(6);
            for (int i = 0; i < instances; i++) {
                ExecutionId e = new ExecutionId("svc", "v1", "i" + i);
                keys.add(e.key());
                for (int m = 0; m < 6; m++) {
                    if (random.nextInt(4) > 0) { // some instances miss some minutes
                        store.write(e, NOW - m * MINUTE, Profiles.random(random, 1 + random.nextInt(30), 8, ALPHABET)
                                .tree(), METHODS);
                    }
                }
            }
            WindowReader windows = new WindowReader(driver, "");
            long from = NOW - 4 * MINUTE + 1; // overlaps five of the six minutes
            List<WindowCounts> whole = windows.windows(keys, from, NOW + MINUTE);
            SideReplicates expected = SideReplicates.of(whole);
            DeploymentCounts counts = DeploymentCounts.read(new WindowReader(driver, ""), new TopologyReader(driver, ""),
                    keys, from, NOW + MINUTE, 1 + random.nextInt(3));

            assertThat(text(counts.replicates().instances())).as("seed %d", seed).isEqualTo(text(expected.instances()));
            assertThat(text(counts.replicates().windows())).as("seed %d", seed).isEqualTo(text(expected.windows()));
            assertThat(text(List.of(counts.replicates().whole()))).isEqualTo(text(List.of(expected.whole())));
            assertThat(counts.replicates().groups()).isEmpty();
            TreeCounts sum = WindowReader.sum(whole);
            assertThat(counts.samples()).isEqualTo(sum.samples()).isPositive();
            assertThat(counts.sum().nodeIds()).isEqualTo(sum.nodeIds());
            assertThat(counts.sum().self()).isEqualTo(sum.self());
            assertThat(counts.sum().total()).isEqualTo(sum.total());
        }
    }

    /**
     * More instances and slots than one read holds, each window added to running sums as it
     * streams in ({@link WindowReader#foldStoredWindows}): every instance's and slot's table, and
     * the whole sum (thread and method tables too), equal those of the windows read whole.
     */
    @Test
    void sumsFoldedAsTheWindowsStreamInEqualThoseOfTheWindowsReadWhole() {
        for (long seed = 11; seed <= 13; seed++) {
            TestServers.get().cleanNeo4j();
            GraphSchema.ensure(driver, "");
            Random random = new Random(seed);
            StoredProfiles store = new StoredProfiles(new GraphWriter(driver, ""));
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 10 + random.nextInt(8); i++) {
                ExecutionId e = new ExecutionId("svc", "v1", "i" + i);
                keys.add(e.key());
                for (int m = 0; m < 10; m++) {
                    if (random.nextInt(5) > 0) {
                        store.write(e, NOW - m * MINUTE, Profiles.random(random, 1 + random.nextInt(60), 10, ALPHABET)
                                .tree(), METHODS);
                    }
                }
            }
            long from = NOW - 8 * MINUTE - 1;
            int chunk = 1 + random.nextInt(7);
            List<WindowCounts> whole = new WindowReader(driver, "").windows(keys, from, NOW + MINUTE);
            SideReplicates expected = SideReplicates.of(whole);

            DeploymentCounts counts = DeploymentCounts.read(new WindowReader(driver, ""), new TopologyReader(driver, ""),
                    keys, from, NOW + MINUTE, chunk);

            String what = "seed " + seed + ", chunk " + chunk;
            assertThat(text(counts.replicates().instances())).as(what).isEqualTo(text(expected.instances()))
                    .hasSizeGreaterThan(chunk);
            assertThat(text(counts.replicates().windows())).as(what).isEqualTo(text(expected.windows())).hasSize(10);
            assertThat(counts.sum()).as(what).isEqualTo(WindowReader.sum(whole));
        }
    }

    private static List<String> text(List<MethodSamples> replicates) {
        return replicates.stream().map(r -> Arrays.toString(r.methodIds()) + Arrays.toString(r.methodSamples())
                + Arrays.toString(r.selfSamples()) + r.samples()).toList();
    }
}
