package io.cctflow.standalone.ui;

import io.cctflow.core.ExecutionId;
import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.servers.TestServers;
import io.cctflow.standalone.e2e.AgentRun;
import io.cctflow.standalone.e2e.FourWayWorkload;
import io.cctflow.standalone.e2e.PipelineRun;
import io.cctflow.standalone.e2e.SplitWorkload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The data behind {@link WebUiTest}, written by the pipeline: child JVMs with the shipped agent
 * jar publish to a real broker, the samples job runs on a Flink MiniCluster into Neo4j. Two
 * services: {@value #SERVICE} runs {@link FourWayWorkload} (its methods {@code A.work} to
 * {@code D.work} each a quarter of the workers' CPU) as deployment {@value #V1} on two instances,
 * then as {@value #V2} on two others with {@code A.work} slowed down ({@value #V2_SLOWDOWN}: its
 * share 2/5); {@value #OTHER} runs {@link SplitWorkload}. {@code v1} runs first, so that {@code v2}
 * is the later deployment (the method view's baseline, the compare view's default sides and profile
 * migration's "previous deployment" follow that order).
 */
final class UiWorkloads {
    static final String SAMPLES = "ui.samples";
    static final String SERVICE = "ui-shop";
    static final String OTHER = "ui-batch";
    static final String V1 = "v1";
    static final String V2 = "v2";
    static final List<String> V1_INSTANCES = List.of("web-1", "web-2");
    static final List<String> V2_INSTANCES = List.of("web-3", "web-4");
    static final double V2_SLOWDOWN = 1.0;
    static final String A_WORK = FourWayWorkload.A.class.getName() + ".work(J)V";
    static final String B_WORK = FourWayWorkload.B.class.getName() + ".work(J)V";
    static final List<String> WORKS = List.of(A_WORK, B_WORK, FourWayWorkload.C.class.getName() + ".work(J)V",
            FourWayWorkload.D.class.getName() + ".work(J)V");
    static final String SPEND = FourWayWorkload.class.getName() + ".spend(J)V";
    static final String FIB = SplitWorkload.Fib.class.getName() + ".fib(I)J";
    /** Short windows, so that the ~30 s runs span several and two ranges of one instance can be compared. */
    static final Map<String, String> JOB_KEYS = Map.of(SamplesJobConfig.WINDOW, "10s");
    private static final long MIN_SAMPLES = 400;
    private static final Duration MINIMUM_RUN = Duration.ofSeconds(30);

    private UiWorkloads() {
    }

    /** Runs the workloads with the agent (v1 and the other service at once, then v2) and the samples job. */
    static PipelineRun run() throws Exception {
        PipelineRun pipeline = PipelineRun.prepare(SAMPLES);
        // the agents publish their CodeManifests there (profile migration needs them) only if it exists
        TestServers.get().createTopic(SamplesJobConfig.defaults().manifestsTopic(), 1);
        List<Callable<Void>> first = new ArrayList<>();
        V1_INSTANCES.forEach(i -> first.add(() -> fourWay(pipeline, V1, i, 0)));
        first.add(() -> agentRun(pipeline, new ExecutionId(OTHER, "1.0", "batch-1"), SplitWorkload.class.getName(), "0"));
        PipelineRun.runAtOnce(first);
        List<Callable<Void>> second = new ArrayList<>();
        V2_INSTANCES.forEach(i -> second.add(() -> fourWay(pipeline, V2, i, V2_SLOWDOWN)));
        PipelineRun.runAtOnce(second);
        pipeline.process(JOB_KEYS);
        return pipeline;
    }

    private static Void fourWay(PipelineRun pipeline, String version, String instance, double slowdown)
            throws Exception {
        return agentRun(pipeline, new ExecutionId(SERVICE, version, instance), FourWayWorkload.class.getName(), "0",
                Double.toString(slowdown));
    }

    private static Void agentRun(PipelineRun pipeline, ExecutionId execution, String... mainAndArgs) throws Exception {
        AgentRun.run(pipeline.bootstrapServers(), pipeline.samplesTopic(), execution, List.of(), "period=10ms,flush=2s",
                MIN_SAMPLES, MINIMUM_RUN, Duration.ofMinutes(3), mainAndArgs);
        return null;
    }
}
