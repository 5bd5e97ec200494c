package io.cctflow.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.core.ExecutionId;
import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.query.QueryService;
import io.cctflow.standalone.e2e.AgentRun;
import io.cctflow.standalone.e2e.CompareApi;
import io.cctflow.standalone.e2e.FourWayWorkload;
import io.cctflow.standalone.e2e.PipelineRun;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 29 end to end: three releases of {@link FourWayWorkload} (split known by construction),
 * each its own deployment of two JVMs with the shipped agent, through a real broker, the samples
 * job on a Flink MiniCluster, Neo4j and the HTTP API's compare, whose replicates are then the
 * instances. Two deployments of one release must show no significant change (at a false discovery
 * rate of {@value #SAME_RELEASE_FDR}, below); the release whose {@code A.work} does twice the work
 * (share 1/4 to 2/5) must be flagged with {@code A.work} first, as a regression of about +0.15 in
 * method time, and no other method a regression.
 *
 * <p>Two JVMs a side because two JVMs of one release differ by more than the windows of one show
 * (JIT decisions are made once per JVM; query-service README, "The model and its assumptions"):
 * with one JVM a side and its 5 s windows as the replicates, this test failed in CI at {@code
 * c344ebb4} with {@code D.work} 0.223 against 0.262 between two runs of one release, q 0.0023 at
 * a rate of 0.01. With instances as replicates that difference is the noise.
 *
 * <p>Samples per deployment: at least {@value #SAMPLES_PER_INSTANCE} per JVM, in windows of 5 s.
 * Samples come in runs (see {@link FourWayWorkload#SLICE_NANOS}), so the noise is estimated, not
 * assumed binomial. Two deployments of one release are compared at a false discovery rate of
 * {@value #SAME_RELEASE_FDR}: at the default 0.05 a pair with no change names a method in up to
 * one pair of twenty by design, which a test must not count as a failure. The agent samples every
 * 2 ms, and the six JVMs go at once, which keeps the test within minutes on a busy machine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SignificanceEndToEndTest {
    private static final String SAMPLES = "sig.samples";
    private static final String SERVICE = "e2e-four-way";
    private static final String FIRST = "1.0-first";
    private static final String SECOND = "1.0-second";
    private static final String SLOWED = "1.1-slowed";
    private static final double SLOWDOWN = 1.0;
    private static final int INSTANCES = 2;
    private static final long SAMPLES_PER_INSTANCE = 1_500;
    private static final double SAME_RELEASE_FDR = 0.01;
    private static final String A_WORK = FourWayWorkload.A.class.getName() + ".work(J)V";

    private QueryService api;

    @BeforeAll
    void runPipeline() throws Exception {
        PipelineRun pipeline = PipelineRun.prepare(SAMPLES);
        List<Callable<Void>> runs = new ArrayList<>();
        for (String version : List.of(FIRST, SECOND, SLOWED)) {
            for (int i = 1; i <= INSTANCES; i++) {
                ExecutionId execution = new ExecutionId(SERVICE, version, version + "-" + i);
                runs.add(() -> {
                    AgentRun.run(pipeline.bootstrapServers(), SAMPLES, execution, "period=2ms,flush=2s",
                            SAMPLES_PER_INSTANCE, Duration.ofMinutes(5), FourWayWorkload.class.getName(), "10",
                            Double.toString(version.equals(SLOWED) ? SLOWDOWN : 0));
                    return null;
                });
            }
        }
        PipelineRun.runAtOnce(runs);
        api = pipeline.processAndServe(Map.of(SamplesJobConfig.WINDOW, "5s"));
    }

    @AfterAll
    void stopApi() {
        if (api != null) {
            api.close();
        }
    }

    @Test
    void twoRunsOfOneReleaseShowNoSignificantChange() throws Exception {
        JsonNode body = CompareApi.compare(api.port(), SERVICE, FIRST, SECOND, SAME_RELEASE_FDR);
        assertCarriesTheRuns(body, SAME_RELEASE_FDR);
        assertThat(body.get("significant").asBoolean()).as(CompareApi.summary(body)).isFalse();
        assertThat(body.get("message").asText()).isEqualTo("no significant change");
        for (JsonNode row : body.get("methods")) {
            assertThat(row.get("change").asText()).as(row.get("method").asText()).isEqualTo("UNCHANGED");
        }
        // the data is the workload's: A.work holds a quarter on both sides (known split)
        JsonNode a = CompareApi.row(body, A_WORK);
        assertThat(a.at("/methodTime/shareA").asDouble()).isCloseTo(0.25, within(0.05));
        assertThat(a.at("/methodTime/shareB").asDouble()).isCloseTo(0.25, within(0.05));
    }

    @Test
    void plantedSlowdownIsFlaggedWithTheSlowedMethodFirst() throws Exception {
        JsonNode body = CompareApi.compare(api.port(), SERVICE, FIRST, SLOWED);
        assertCarriesTheRuns(body, 0.05);
        assertThat(body.get("significant").asBoolean()).as(CompareApi.summary(body)).isTrue();
        JsonNode first = body.get("methods").get(0);
        assertThat(first.get("method").asText()).as(CompareApi.summary(body)).isEqualTo(A_WORK);
        assertThat(first.get("change").asText()).isEqualTo("REGRESSION");
        JsonNode time = first.get("methodTime");
        assertThat(time.get("significant").asBoolean()).isTrue();
        assertThat(time.get("low").asDouble()).isPositive();
        // known split: 1/4 before, 2/5 after, each side within the same 0.05 as in the test above
        // (the delta alone within 0.04 failed once in CI at 0.192: a side's share is JFR's wall-time
        // sampling of slices timed in CPU time, and scatters more than binomially)
        String summary = CompareApi.summary(body);
        assertThat(time.get("shareA").asDouble()).as(summary).isCloseTo(1.0 / 4, within(0.05));
        assertThat(time.get("shareB").asDouble()).as(summary).isCloseTo(2.0 / 5, within(0.05));
        assertThat(time.get("delta").asDouble()).as(summary)
                .isCloseTo(time.get("shareB").asDouble() - time.get("shareA").asDouble(), within(1e-9));
        for (JsonNode row : body.get("methods")) {
            if (!row.get("method").asText().equals(A_WORK)) {
                assertThat(row.get("change").asText()).as(CompareApi.summary(body)).isNotEqualTo("REGRESSION");
            }
        }
    }

    /**
     * Both sides carry their JVMs' samples, and the significance block says what it used: the
     * instances as replicates.
     */
    private static void assertCarriesTheRuns(JsonNode body, double fdr) {
        String summary = CompareApi.summary(body);
        assertThat(body.at("/a/samples").asLong()).as(summary).isGreaterThan(INSTANCES * SAMPLES_PER_INSTANCE);
        assertThat(body.at("/b/samples").asLong()).as(summary).isGreaterThan(INSTANCES * SAMPLES_PER_INSTANCE);
        assertThat(body.at("/significance/fdr").asDouble()).isEqualTo(fdr);
        assertThat(body.at("/significance/model").asText()).as(summary).isEqualTo("replicates");
        assertThat(body.at("/significance/unitA").asText()).as(summary).isEqualTo("instances");
        assertThat(body.at("/significance/replicatesA").asInt()).as(summary).isEqualTo(INSTANCES);
        assertThat(body.at("/significance/replicatesB").asInt()).as(summary).isEqualTo(INSTANCES);
        assertThat(body.at("/significance/tested").asInt()).isPositive();
    }
}
