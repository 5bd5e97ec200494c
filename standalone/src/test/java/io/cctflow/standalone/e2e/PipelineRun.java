package io.cctflow.standalone.e2e;

import io.cctflow.flink.SamplesJob;
import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.query.QueryService;
import io.cctflow.servers.TestServers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The pipeline behind an end-to-end test, on the shared {@link TestServers}: a samples topic and
 * its dead-letter topic ({@code <topic>.dlq}) on the broker and an empty Neo4j ({@link #prepare}),
 * then, once the test's agent runs ({@link AgentRun}) have published, the samples job run over
 * everything in the topic on a Flink MiniCluster (bounded, parallelism 2, no restarts) and the query
 * service started on what it stored ({@link #processAndServe}; {@link #process} runs the job alone).
 */
public final class PipelineRun {
    private final TestServers servers;
    private final String samplesTopic;

    private PipelineRun(TestServers servers, String samplesTopic) {
        this.servers = servers;
        this.samplesTopic = samplesTopic;
    }

    /** Creates the topics (2 partitions for samples, 1 for dead letters) and empties Neo4j. */
    public static PipelineRun prepare(String samplesTopic) {
        TestServers servers = TestServers.get();
        servers.createTopic(samplesTopic, 2);
        servers.createTopic(deadLetterTopic(samplesTopic), 1);
        servers.cleanNeo4j();
        return new PipelineRun(servers, samplesTopic);
    }

    public static String deadLetterTopic(String samplesTopic) {
        return samplesTopic + ".dlq";
    }

    public String bootstrapServers() {
        return servers.kafkaBootstrapServers();
    }

    public String samplesTopic() {
        return samplesTopic;
    }

    /**
     * Runs the given agent runs at once and waits for all: on a busy machine they wait for a core
     * together, not one after another. The first failure is thrown.
     */
    public static void runAtOnce(List<Callable<Void>> runs) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(runs.size());
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (Callable<Void> run : runs) {
                done.add(pool.submit(run));
            }
            for (Future<Void> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Runs the samples job over the topic to its end (within 4 minutes) and starts the query service
     * on the stored result; the caller closes it.
     *
     * @param jobKeys further samples-job keys (e.g. {@link SamplesJobConfig#WINDOW}); they win over
     *     this fixture's
     */
    public QueryService processAndServe(Map<String, String> jobKeys) throws Exception {
        return QueryService.start(process(jobKeys).graph(), "127.0.0.1", 0);
    }

    /**
     * Runs the samples job over the topic to its end (within 4 minutes), under a fresh consumer
     * group, so a second run reads everything again (and task definitions published since) and
     * writes the same counts; returns the job's configuration.
     *
     * @param jobKeys as for {@link #processAndServe}
     */
    public SamplesJobConfig process(Map<String, String> jobKeys) throws Exception {
        Map<String, String> keys = new HashMap<>(Map.of(
                SamplesJobConfig.STATE_BACKEND, "hashmap",
                SamplesJobConfig.BOOTSTRAP_SERVERS, servers.kafkaBootstrapServers(),
                SamplesJobConfig.SAMPLES_TOPIC, samplesTopic,
                SamplesJobConfig.DEAD_LETTER_TOPIC, deadLetterTopic(samplesTopic),
                SamplesJobConfig.GROUP_ID, samplesTopic + "-" + System.nanoTime(),
                SamplesJobConfig.NEO4J_URI, servers.neo4jUri(),
                SamplesJobConfig.NEO4J_USER, servers.neo4jUser(),
                SamplesJobConfig.NEO4J_PASSWORD, servers.neo4jPassword(),
                SamplesJobConfig.PARALLELISM, "2",
                SamplesJobConfig.BOUNDED, "true"));
        keys.putAll(jobKeys);
        SamplesJobConfig config = SamplesJobConfig.defaults().with(keys);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(
                Configuration.fromMap(Map.of("restart-strategy.type", "none")));
        JobClient job = SamplesJob.start(env, config);
        job.getJobExecutionResult().get(4, TimeUnit.MINUTES);
        return config;
    }
}
