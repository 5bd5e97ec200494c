package io.cctflow.standalone.cluster;

import io.cctflow.flink.JobTopics;
import io.cctflow.flink.SamplesJob;
import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.servers.internal.KafkaProcess;
import io.cctflow.servers.internal.Neo4jServerMain;
import io.cctflow.servers.internal.Ports;
import io.cctflow.standalone.Checkpoints;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * cctflow as separate processes on one machine: three Kafka brokers (KRaft), a Neo4j process, a
 * Flink session cluster (a JobManager and two TaskManagers) running the job jar submitted over
 * Flink's REST API, and two query-service processes. Everything keeps its data under one
 * directory; {@link #close} stops it all in reverse order. The processes talk over loopback TCP
 * only, as they would across machines, but this proves nothing about a real network.
 */
public final class Cluster implements AutoCloseable {
    static final int TASK_MANAGERS = 2;
    static final int QUERY_SERVICES = 2;
    static final int SAMPLES_PARTITIONS = 4;
    private static final Duration START_TIMEOUT = Duration.ofMinutes(5);

    private final ClusterOptions options;
    private final Consumer<String> progress;
    private final Deque<AutoCloseable> running = new ArrayDeque<>();
    private final List<ChildJvm> processes = new ArrayList<>();
    private final List<Integer> queryPorts = new ArrayList<>();
    private final List<ChildJvm> queryServices = new ArrayList<>();
    private KafkaCluster kafka;
    private String boltUri;
    private FlinkCluster flink;
    private String jarId;
    private String jobId;

    private Cluster(ClusterOptions options, Consumer<String> progress) {
        this.options = options;
        this.progress = progress;
    }

    /** Starts every process, each after what it needs, and reports each step to {@code progress}. */
    public static Cluster start(ClusterOptions options, Consumer<String> progress) throws Exception {
        Cluster cluster = new Cluster(options, progress);
        try {
            cluster.startAll();
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startAll() throws Exception {
        Path data = options.dataDir();
        Files.createDirectories(data);
        progress.accept("data directory " + data);

        kafka = KafkaCluster.start(data.resolve("kafka"), START_TIMEOUT);
        running.push(kafka);
        processes.addAll(kafka.nodes());
        SamplesJobConfig defaults = SamplesJobConfig.defaults();
        kafka.createTopics(Map.of(defaults.samplesTopic(), SAMPLES_PARTITIONS, defaults.manifestsTopic(), 1),
                JobTopics.agentTopicConfigs());
        kafka.createTopics(Map.of(defaults.deadLetterTopic(), 1), Map.of());
        kafka.createTopics(Map.of(defaults.tasksTopic(), 1), Map.of("cleanup.policy", "compact"));
        progress.accept("Kafka: " + KafkaCluster.NODES + " KRaft brokers at " + kafka.bootstrapServers()
                + ", topics replicated " + KafkaCluster.REPLICATION + "x, min.insync.replicas " + KafkaCluster.MIN_IN_SYNC);

        startNeo4j(data.resolve("neo4j"));
        progress.accept("Neo4j at " + boltUri);

        flink = FlinkCluster.start(data.resolve("flink"), TASK_MANAGERS, START_TIMEOUT);
        running.push(flink);
        processes.add(flink.jobManager());
        processes.addAll(flink.taskManagers());
        progress.accept("Flink session cluster: a JobManager and " + TASK_MANAGERS + " TaskManagers ("
                + TASK_MANAGERS * FlinkCluster.SLOTS_PER_TASK_MANAGER + " slots), REST at " + flink.rest().base());

        jarId = flink.rest().uploadJar(options.jobJar());
        submitJob();

        startQueryServices(data.resolve("query"));
        progress.accept("query services at " + queryPorts.stream().map(p -> "http://127.0.0.1:" + p).toList());
    }

    private void startNeo4j(Path dir) throws Exception {
        Files.createDirectories(dir);
        Path portFile = dir.resolve("bolt.port");
        int port = Files.exists(portFile) ? Integer.parseInt(Files.readString(portFile).trim()) : Ports.free();
        Files.writeString(portFile, Integer.toString(port));
        boltUri = "bolt://" + Ports.LOOPBACK + ":" + port;
        Path log = dir.resolve("neo4j-process.log");
        ChildJvm neo4j = ChildJvm.start("neo4j", log, ChildJvm.java(List.of("-Xmx1g",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens=java.base/java.io=ALL-UNNAMED", "-Djava.io.tmpdir=" + dir,
                "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider"), KafkaProcess.absoluteClassPath(),
                Neo4jServerMain.class.getName(), List.of(dir.resolve("home").toString(), Integer.toString(port)), dir, log));
        running.push(neo4j);
        processes.add(neo4j);
        awaitLine(neo4j, Neo4jServerMain.READY);
    }

    /**
     * Submits the job jar over the REST API: from the newest retained checkpoint if there is one
     * (a restart of the cluster, or of a JobManager that died), else fresh.
     */
    public void submitJob() throws Exception {
        List<String> args = List.of(
                "--" + SamplesJobConfig.BOOTSTRAP_SERVERS, kafka.bootstrapServers(),
                "--" + SamplesJobConfig.NEO4J_URI, boltUri,
                "--" + SamplesJobConfig.PARALLELISM, Integer.toString(options.parallelism()),
                "--" + SamplesJobConfig.CHECKPOINT_INTERVAL, "5s");
        String restore = Checkpoints.latest(flink.checkpoints()).map(p -> p.toUri().toString()).orElse(null);
        jobId = flink.rest().runJar(jarId, SamplesJob.class.getName(), args, options.parallelism(), restore);
        awaitJobRunning();
        progress.accept("job " + SamplesJob.NAME + " submitted as the job jar over REST, running (" + jobId
                + (restore == null ? ", fresh" : ", restored from " + restore) + ")");
    }

    /** Waits until the job is {@code RUNNING}. */
    public void awaitJobRunning() throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        String state = "";
        while (System.nanoTime() < deadline) {
            state = flink.rest().jobState(jobId);
            if (state.equals("RUNNING")) {
                return;
            }
            if (state.equals("FAILED") || state.equals("CANCELED")) {
                break;
            }
            Thread.sleep(500); // polling the job's state
        }
        throw new IllegalStateException("job " + jobId + " is " + state + ", not RUNNING; see " + flink.jobManager().log());
    }

    private void startQueryServices(Path dir) throws Exception {
        Files.createDirectories(dir);
        for (int i = 0; i < QUERY_SERVICES; i++) {
            int port = options.queryPort() + i;
            Properties config = new Properties();
            config.setProperty("port", Integer.toString(port));
            config.setProperty("neo4j.uri", boltUri);
            config.setProperty("kafka.bootstrap.servers", kafka.bootstrapServers());
            Path file = dir.resolve("query-" + (i + 1) + ".properties");
            PropertyFiles.write(file, config, "configuration of query service " + (i + 1));
            Path log = dir.resolve("query-" + (i + 1) + ".log");
            List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx384m", "-jar", options.queryJar().toString(), "--config", file.toString());
            ChildJvm service = ChildJvm.start("query-" + (i + 1), log, () -> ChildJvm.launch(command, dir, log));
            running.push(service);
            processes.add(service);
            queryServices.add(service);
            queryPorts.add(port);
        }
        for (int port : queryPorts) {
            awaitReady(port);
        }
    }

    /** Waits until {@code GET /readyz} of the query service on {@code port} answers 200. */
    public static void awaitReady(int port) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(500); // polling a starting server
        }
        throw new IllegalStateException("the query service on port " + port + " was not ready within " + START_TIMEOUT);
    }

    private static void awaitLine(ChildJvm child, String text) throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!child.isAlive()) {
                throw new IllegalStateException(child.name() + " exited while starting; see " + child.log());
            }
            if (Files.exists(child.log()) && Files.readString(child.log()).contains(text)) {
                return;
            }
            Thread.sleep(250); // polling a starting server's log
        }
        throw new IllegalStateException(child.name() + " did not start within " + START_TIMEOUT + "; see " + child.log());
    }

    /** Is the port of a process accepting connections? */
    static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(Ports.LOOPBACK, port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    public KafkaCluster kafka() {
        return kafka;
    }

    public String boltUri() {
        return boltUri;
    }

    public FlinkCluster flink() {
        return flink;
    }

    public String jobId() {
        return jobId;
    }

    public List<Integer> queryPorts() {
        return queryPorts;
    }

    public List<ChildJvm> queryServices() {
        return queryServices;
    }

    /** Every process, in start order. */
    public List<ChildJvm> processes() {
        return processes;
    }

    /** Resident memory of every process, in MiB. */
    public Map<String, Long> rssMib() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (ChildJvm p : processes) {
            m.put(p.name(), p.rssMib());
        }
        return m;
    }

    @Override
    public synchronized void close() {
        while (!running.isEmpty()) {
            try {
                running.pop().close();
            } catch (Exception e) {
                System.err.println("while stopping: " + e);
            }
        }
    }
}
