package io.cctflow.standalone;

import io.cctflow.flink.JobTopics;
import io.cctflow.flink.SamplesJob;
import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.query.QueryService;
import io.cctflow.query.QueryServiceConfig;
import io.cctflow.servers.KafkaServer;
import io.cctflow.servers.Neo4jServer;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The whole pipeline on one machine: a Kafka broker (KRaft) as a child process, Neo4j with Bolt
 * in-process, the samples job on a Flink MiniCluster, the query API, and optionally a demo JVM
 * with the agent. Everything keeps its data under one directory; Ctrl-C stops it all in reverse
 * order.
 */
public final class Standalone {
    static final String EXAMPLE_METHOD = "io.cctflow.standalone.demo.Shop.priceCart";

    private final StandaloneOptions options;
    /** What to close on shutdown, most recently started first. */
    private final Deque<AutoCloseable> running = new ArrayDeque<>();
    private final long startNanos = System.nanoTime();

    private Standalone(StandaloneOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("cluster")) {
            io.cctflow.standalone.cluster.ClusterMain.run(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        StandaloneOptions options;
        try {
            if (StandaloneOptions.asksForHelp(args)) {
                System.out.print(StandaloneOptions.usage());
                return;
            }
            options = StandaloneOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        routeLogsToFile(options.dataDir(), "standalone.log");
        Standalone standalone = new Standalone(options);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            standalone.stop();
            stopped.countDown();
        }, "cctflow-shutdown"));
        try {
            standalone.run();
        } catch (Exception e) {
            System.err.println("cctflow standalone failed: " + e.getMessage());
            System.exit(1);
        }
        stopped.await();
    }

    /**
     * Keeps the console for progress lines: library logs (Flink, Kafka clients, the driver) go to
     * {@code fileName} in the data directory. Must run before the first logger is created;
     * settings given with {@code -D} win.
     */
    public static void routeLogsToFile(Path dataDir, String fileName) throws IOException {
        Files.createDirectories(dataDir);
        System.setProperty("slf4j.provider", System.getProperty("slf4j.provider", "org.slf4j.simple.SimpleServiceProvider"));
        System.setProperty("org.slf4j.simpleLogger.logFile",
                System.getProperty("org.slf4j.simpleLogger.logFile", dataDir.resolve(fileName).toString()));
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "info"));
        System.setProperty("org.slf4j.simpleLogger.showDateTime", "true");
    }

    private void run() throws Exception {
        Path data = options.dataDir();
        Files.createDirectories(data);
        step("data directory " + data);

        KafkaServer kafka = KafkaServer.start(data.resolve("kafka"));
        running.push(kafka);
        SamplesJobConfig defaults = SamplesJobConfig.defaults();
        kafka.createTopic(defaults.samplesTopic(), 2, JobTopics.agentTopicConfigs());
        kafka.createTopic(defaults.deadLetterTopic(), 1, Map.of());
        // before the job starts: the job subscribes to the manifests topic by pattern and, without
        // partition discovery, would never see a topic the first agent creates later
        kafka.createTopic(defaults.manifestsTopic(), 1, JobTopics.agentTopicConfigs());
        step("Kafka broker (KRaft) at " + kafka.bootstrapServers() + ", log in " + data.resolve("kafka"));

        Neo4jServer neo4j = Neo4jServer.start(data.resolve("neo4j"));
        running.push(neo4j);
        step("Neo4j at " + neo4j.boltUri());

        SamplesJobConfig config = defaults.with(Map.of(
                SamplesJobConfig.STATE_BACKEND, "hashmap",
                SamplesJobConfig.BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                SamplesJobConfig.NEO4J_URI, neo4j.boltUri().toString()));
        JobClient job = SamplesJob.start(flinkEnvironment(data.resolve("flink")), config);
        running.push(() -> job.cancel().get());
        step("Flink job " + SamplesJob.NAME + " running on a MiniCluster (" + job.getJobID() + ")");

        QueryService api = QueryService.start(options.queryConfig(Map.of(
                QueryServiceConfig.BIND, options.bindAddress(),
                QueryServiceConfig.PORT, Integer.toString(options.port()),
                QueryServiceConfig.NEO4J_URI, neo4j.boltUri().toString(),
                QueryServiceConfig.BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                QueryServiceConfig.TASKS_TOPIC, defaults.tasksTopic())), options.alertingConfig());
        running.push(api);
        String base = "http://" + options.bindAddress() + ":" + api.port();
        step("query API at " + base + "/api/v1/services");
        step("web UI at " + base + "/");

        String query = base + "/api/v1/metrics/method?service=" + DemoProcess.SERVICE + "&method=" + EXAMPLE_METHOD;
        DemoDeployments demo = null;
        if (options.demo()) {
            Path agentJar = options.agentJar() != null ? options.agentJar() : defaultAgentJar();
            demo = DemoDeployments.start(agentJar, kafka.bootstrapServers(), data.resolve("demo.log"),
                    this::step);
            running.push(demo);
            step("demo JVMs started (" + DemoProcess.INSTANCES + " instances of service " + DemoProcess.SERVICE + " "
                    + DemoProcess.VERSION + "; in " + DemoDeployments.FIRST_RUN.toMinutes() + " min " + DemoProcess.NEXT_VERSION + " starts beside it, with "
                    + DemoProcess.SLOWED_METHOD + " " + Math.round(DemoProcess.SLOWDOWN * 100) + " % slower; log in "
                    + data.resolve("demo.log") + ")");
        }
        System.out.println();
        System.out.println("cctflow is up. Try:");
        System.out.println("  curl '" + base + "/api/v1/services'");
        System.out.println("  curl '" + query + "'");
        if (options.demo()) {
            System.out.println("and the comparison of the two deployments (reported below once the second runs):");
            System.out.println("  curl '" + DemoDeployments.compareQuery(base) + "'");
        }
        System.out.println("Press Ctrl-C to stop.");
        if (demo != null) {
            awaitFirstAnswer(query);
            Instant bothRun = demo.awaitNextDeployment(DemoDeployments.FIRST_RUN.plusMinutes(2));
            if (bothRun != null) {
                DemoComparisonWatch.follow(DemoDeployments.compareQuery(base, bothRun), this::step);
            }
        }
    }

    /** Polls the example query until it reports samples, and says how long that took from start. */
    private void awaitFirstAnswer(String query) throws InterruptedException, URISyntaxException {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(new URI(query)).timeout(Duration.ofSeconds(10)).build();
        Pattern samples = Pattern.compile("\"methodSamples\"\\s*:\\s*(\\d+)");
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                Matcher m = samples.matcher(response.body());
                if (response.statusCode() == 200 && m.find() && Long.parseLong(m.group(1)) > 0) {
                    step("first demo samples queryable (" + m.group(1) + " samples of " + EXAMPLE_METHOD + ")");
                    return;
                }
            } catch (IOException e) {
                // the API is local and up; a failed poll is retried like an empty answer
            }
            Thread.sleep(1000); // polling interval of a progress message, not a test wait
        }
        System.out.println("no demo samples after 5 minutes; see " + options.dataDir().resolve("demo.log"));
    }

    /**
     * A MiniCluster whose checkpoints are kept in the data directory and survive a stop, so the
     * next start resumes from the newest one: keyed CCT state and open windows carry over, and a
     * window open at the stop is completed rather than overwritten by a fresh partial sum.
     * Checkpoints are filed by {@link SamplesJob#STATE_VERSION}: a job whose state format changed
     * starts fresh instead of failing to restore an older one.
     */
    private StreamExecutionEnvironment flinkEnvironment(Path dir) throws IOException {
        Path checkpoints = dir.resolve("checkpoints").resolve("state-v" + SamplesJob.STATE_VERSION);
        Map<String, String> conf = new java.util.HashMap<>(Map.of(
                "state.backend.type", "hashmap",
                "execution.checkpointing.storage", "filesystem",
                "execution.checkpointing.dir", checkpoints.toUri().toString(),
                "execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION",
                "execution.checkpointing.num-retained", "2",
                "restart-strategy.type", "exponential-delay",
                "taskmanager.numberOfTaskSlots", "4",
                "rest.bind-port", "0"));
        Checkpoints.latest(checkpoints).ifPresent(latest -> {
            conf.put("execution.state-recovery.path", latest.toUri().toString());
            step("resuming the Flink job from " + latest);
        });
        return StreamExecutionEnvironment.createLocalEnvironment(Configuration.fromMap(conf));
    }

    private static Path defaultAgentJar() throws URISyntaxException {
        Path self = Path.of(Standalone.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        // next to cctflow-standalone.jar, or next to target/classes when run from the build tree
        return self.getParent().resolve("cctflow-agent.jar");
    }

    private void step(String what) {
        System.out.printf("[%6.1f s] %s%n", (System.nanoTime() - startNanos) / 1e9, what);
    }

    private synchronized void stop() {
        if (running.isEmpty()) {
            return;
        }
        System.out.println("stopping cctflow ...");
        while (!running.isEmpty()) {
            AutoCloseable c = running.pop();
            try {
                c.close();
            } catch (Exception e) {
                System.err.println("while stopping: " + e);
            }
        }
        System.out.println("stopped.");
    }
}
