package io.cctflow.bench.pipeline;

import io.cctflow.flink.SamplesJobConfig;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.read.WindowReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.neo4j.driver.Driver;

/**
 * The multi-process cluster ({@code java -jar cctflow-standalone.jar cluster}: three KRaft brokers,
 * Neo4j, a Flink JobManager and two TaskManagers running the job jar, two query services) run as a
 * child process, exactly as a user starts it, plus what a benchmark needs beside it: a producer to
 * its brokers, the job's consumer lag, a reader of its Neo4j, and the CPU time of each of its
 * processes. The benchmark module may not link against standalone (nothing depends on it), so the
 * cluster's addresses are read from the lines it prints.
 *
 * <p>{@link #sendSamples} is thread-safe; the rest is for one thread. {@link #close} stops the
 * cluster as Ctrl-C does.
 */
public final class ClusterUnderTest implements BatchTarget, AutoCloseable {
    private static final Pattern KAFKA = Pattern.compile("KRaft brokers at (\\S+), topics");
    private static final Pattern BOLT = Pattern.compile("Neo4j at (bolt://\\S+)");
    private static final String READY = "query services at";

    private final Process command;
    private final String bootstrapServers;
    private final KafkaProducer<byte[], byte[]> producer;
    private final ConsumerLag lag;
    private final Driver driver;
    private final WindowReader reader;
    private final String samplesTopic;

    private ClusterUnderTest(Process command, String bootstrapServers, String boltUri) {
        this.command = command;
        this.bootstrapServers = bootstrapServers;
        SamplesJobConfig defaults = SamplesJobConfig.defaults();
        samplesTopic = defaults.samplesTopic();
        producer = new KafkaProducer<>(EmbeddedPipeline.producerProperties(bootstrapServers));
        lag = new ConsumerLag(bootstrapServers, samplesTopic, defaults.groupId());
        driver = new GraphStoreConfig(boltUri, "", "", "").openDriver();
        reader = WindowReader.asStored(driver, ""); // the probes sum self counts
    }

    /**
     * Starts {@code java -jar standaloneJar cluster --data-dir dataDir --parallelism p --port port}
     * and waits (up to {@code timeout}) until it says every part is up; its lines are echoed to
     * {@code out} with {@code prefix}.
     */
    public static ClusterUnderTest start(Path standaloneJar, Path dataDir, int parallelism, int port, Duration timeout,
            PrintStream out, String prefix) throws IOException, InterruptedException {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                standaloneJar.toString(), "cluster", "--data-dir", dataDir.toString(), "--parallelism",
                Integer.toString(parallelism), "--port", Integer.toString(port));
        Process process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        // the cluster command outlives its parent (as a user's command outlives a closed terminal):
        // a benchmark stopped with Ctrl-C or kill must stop it, or its nine JVMs load the next run
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(process), "stop-cluster"));
        CompletableFuture<String[]> addresses = new CompletableFuture<>();
        Thread echo = new Thread(() -> {
            String kafka = null;
            String bolt = null;
            try (BufferedReader lines = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    out.println(prefix + line);
                    Matcher k = KAFKA.matcher(line);
                    Matcher b = BOLT.matcher(line);
                    if (k.find()) {
                        kafka = k.group(1);
                    } else if (b.find()) {
                        bolt = b.group(1);
                    } else if (line.contains(READY) && kafka != null && bolt != null) {
                        addresses.complete(new String[] {kafka, bolt});
                    }
                }
            } catch (IOException e) {
                addresses.completeExceptionally(e);
            }
            if (!addresses.isDone()) {
                addresses.completeExceptionally(new IOException("the cluster command ended its output before it was"
                        + " up; its logs are under " + dataDir));
            }
        }, "cluster-output");
        echo.setDaemon(true);
        echo.start();
        try {
            String[] a = addresses.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return new ClusterUnderTest(process, a[0], a[1]);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            stop(process);
            throw new IOException("the cluster did not come up within " + timeout + ": " + e.getMessage(), e);
        }
    }

    @Override
    public CompletableFuture<Void> sendSamples(String executionKey, byte[] encodedBatch) {
        return EmbeddedPipeline.send(producer, samplesTopic, executionKey, encodedBatch);
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    public ConsumerLag lag() {
        return lag;
    }

    /** Neo4j's windows as stored ({@link WindowReader#asStored}: self counts, no topology), for the latency probes. */
    public WindowReader reader() {
        return reader;
    }

    /**
     * CPU time used so far by each of the cluster's processes, in nanoseconds, keyed by role and
     * pid, e.g. {@code taskmanager 4711}, {@code kafka 4690}; roles: {@code taskmanager},
     * {@code jobmanager}, {@code kafka}, {@code neo4j}, {@code query}, {@code command} (the cluster
     * command itself). Read from the operating system ({@code /proc}), so it covers every thread.
     */
    public Map<String, Long> cpuNanosByProcess() {
        Map<String, Long> cpu = new TreeMap<>();
        List<ProcessHandle> processes = new ArrayList<>(List.of(command.toHandle()));
        processes.addAll(command.descendants().toList());
        for (ProcessHandle p : processes) {
            long nanos = ProcFs.cpuNanos(p.pid());
            if (nanos >= 0) {
                cpu.put((p.pid() == command.pid() ? "command" : role(ProcFs.commandLine(p.pid()))) + " " + p.pid(), nanos);
            }
        }
        return cpu;
    }

    static String role(String commandLine) {
        if (commandLine.contains("TaskManagerRunner")) {
            return "taskmanager";
        } else if (commandLine.contains("ClusterEntrypoint")) {
            return "jobmanager";
        } else if (commandLine.contains("Neo4jServerMain")) {
            return "neo4j";
        } else if (commandLine.contains("query-service")) {
            return "query";
        } else if (commandLine.contains("KafkaBrokerMain")) {
            return "kafka";
        }
        return "other";
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(10));
        lag.close();
        driver.close();
        stop(command);
    }

    /** As Ctrl-C: SIGTERM, the command stops its children; forcibly after a minute. */
    private static void stop(Process process) {
        List<ProcessHandle> children = new ArrayList<>(process.descendants().toList());
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }
}
