package io.cctflow.standalone.cluster;

import io.cctflow.servers.internal.ParentWatchdog;
import io.cctflow.servers.internal.Ports;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.jar.JarFile;
import java.util.regex.Pattern;

/**
 * A Flink session cluster of separate JVMs: a JobManager ({@code StandaloneSessionClusterEntrypoint})
 * and TaskManagers ({@code TaskManagerRunner}), Flink's own entry points from {@code flink-runtime}
 * (with {@code flink-runtime-web} for the REST API's jar upload and run), as {@code bin/jobmanager.sh}
 * and {@code bin/taskmanager.sh} of a Flink distribution start them. Their class path is Flink's
 * alone: our code, the connectors and drivers come with the job jar, as on a real cluster.
 * Configuration in {@code dir/conf/config.yaml}; retained checkpoints in {@code dir/checkpoints}.
 */
public final class FlinkCluster implements AutoCloseable {
    static final int SLOTS_PER_TASK_MANAGER = 2;
    static final String JOB_MANAGER_MAIN = "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint";
    static final String TASK_MANAGER_MAIN = "org.apache.flink.runtime.taskexecutor.TaskManagerRunner";
    /** Jars of our code and of what the job jar bundles: never on Flink's own class path. */
    private static final Pattern NOT_FLINK = Pattern.compile(
            "(cctflow-|kafka|neo4j|avro|flink-connector-kafka|flink-connector-base|lucene|netty|reactor-|reactive-streams|scala-).*\\.jar");

    private final Path dir;
    private final ChildJvm jobManager;
    private final List<ChildJvm> taskManagers;
    private final FlinkRest rest;

    private FlinkCluster(Path dir, ChildJvm jobManager, List<ChildJvm> taskManagers, FlinkRest rest) {
        this.dir = dir;
        this.jobManager = jobManager;
        this.taskManagers = taskManagers;
        this.rest = rest;
    }

    /** Writes the configuration, starts the JobManager and {@code taskManagers} TaskManagers, waits for their slots. */
    static FlinkCluster start(Path dir, int taskManagers, Duration timeout) throws Exception {
        Files.createDirectories(dir);
        Path conf = dir.resolve("conf");
        Path portsFile = dir.resolve("ports.properties");
        Properties ports = Files.exists(portsFile) ? PropertyFiles.read(portsFile) : new Properties();
        if (ports.isEmpty()) {
            int[] free = Ports.free(2);
            ports.setProperty("rpc", Integer.toString(free[0]));
            ports.setProperty("rest", Integer.toString(free[1]));
            PropertyFiles.write(portsFile, ports, "ports of this Flink cluster, reused on restart");
        }
        writeConfig(conf, dir, ports.getProperty("rpc"), ports.getProperty("rest"));
        String classPath = flinkClassPath(dir.resolve("watched-main.jar"));
        List<String> args = List.of("--configDir", conf.toString());
        ChildJvm jm = ChildJvm.start("jobmanager", dir.resolve("jobmanager.log"), ChildJvm.java(
                jvmOptions("384m", dir), classPath, JOB_MANAGER_MAIN, args, dir, dir.resolve("jobmanager.log")));
        List<ChildJvm> tms = new ArrayList<>();
        for (int i = 1; i <= taskManagers; i++) {
            List<String> tmArgs = new ArrayList<>(args);
            tmArgs.addAll(List.of("-D", "taskmanager.resource-id=taskmanager-" + i,
                    "-D", "io.tmp.dirs=" + dir.resolve("tmp-taskmanager-" + i)));
            Path log = dir.resolve("taskmanager-" + i + ".log");
            List<String> jvm = new ArrayList<>(jvmOptions(null, dir));
            jvm.addAll(taskManagerResources(conf, tmArgs));
            tms.add(ChildJvm.start("taskmanager-" + i, log, ChildJvm.java(jvm, classPath, TASK_MANAGER_MAIN, tmArgs,
                    dir, log)));
        }
        FlinkCluster cluster = new FlinkCluster(dir, jm, tms,
                new FlinkRest("http://" + Ports.LOOPBACK + ":" + ports.getProperty("rest")));
        cluster.awaitSlots(taskManagers * SLOTS_PER_TASK_MANAGER, timeout);
        return cluster;
    }

    /**
     * What Flink's {@code taskmanager.sh} computes with {@code BashJavaUtils}: the TaskManager's
     * memory and CPU as dynamic properties (appended to {@code tmArgs}) and the JVM's heap,
     * direct and metaspace limits (returned), from {@code taskmanager.memory.process.size}.
     */
    private static List<String> taskManagerResources(Path conf, List<String> tmArgs) {
        Configuration config = GlobalConfiguration.loadConfiguration(conf.toString());
        TaskExecutorProcessSpec spec = TaskExecutorProcessUtils.processSpecFromConfig(config);
        for (String property : TaskExecutorProcessUtils.generateDynamicConfigsStr(spec).trim().split("\\s+")) {
            tmArgs.add(property);
        }
        return List.of(ProcessMemoryUtils.generateJvmParametersStr(spec).trim().split("\\s+"));
    }

    private static List<String> jvmOptions(String heap, Path dir) {
        List<String> options = new ArrayList<>();
        if (heap != null) {
            options.add("-Xmx" + heap);
        }
        options.addAll(List.of("-XX:+ExitOnOutOfMemoryError", "-Djava.io.tmpdir=" + dir.resolve("tmp"),
                "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=info", "-Dorg.slf4j.simpleLogger.showDateTime=true",
                // as Flink's own scripts start its JVMs (RocksDB and Flink's memory manager)
                "--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
                "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
                "--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
                "--add-opens=java.base/java.time=ALL-UNNAMED", "--add-opens=java.base/java.text=ALL-UNNAMED"));
        return options;
    }

    private static void writeConfig(Path conf, Path dir, String rpcPort, String restPort) throws IOException {
        Map<String, String> c = new LinkedHashMap<>();
        c.put("jobmanager.rpc.address", Ports.LOOPBACK);
        c.put("jobmanager.rpc.port", rpcPort);
        c.put("jobmanager.bind-host", Ports.LOOPBACK);
        c.put("taskmanager.bind-host", Ports.LOOPBACK);
        c.put("taskmanager.host", Ports.LOOPBACK);
        c.put("rest.address", Ports.LOOPBACK);
        c.put("rest.bind-address", Ports.LOOPBACK);
        c.put("rest.port", restPort);
        c.put("taskmanager.numberOfTaskSlots", Integer.toString(SLOTS_PER_TASK_MANAGER));
        // spread the job's slots over both TaskManagers (the default fills one first): the work
        // divides across processes, and losing either TaskManager is a failure the job recovers from
        c.put("taskmanager.load-balance.mode", "slots");
        // chosen to fit two TaskManagers beside three brokers, Neo4j and two query services in a few GiB
        c.put("jobmanager.memory.process.size", "640m");
        // 1600m with a quarter managed (RocksDB) leaves each TaskManager ~430 MiB of task heap; at
        // 1000m and Flink's default 40 % managed the task heap was a few MiB and both TaskManagers
        // died of OutOfMemoryError at 20,000 samples/s (ClusterScaleOutBenchmark)
        c.put("taskmanager.memory.process.size", "1600m");
        c.put("taskmanager.memory.managed.fraction", "0.25");
        c.put("state.backend.type", "rocksdb");
        c.put("execution.checkpointing.incremental", "true");
        c.put("execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());
        c.put("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");
        c.put("execution.checkpointing.num-retained", "3");
        c.put("restart-strategy.type", "fixed-delay");
        c.put("restart-strategy.fixed-delay.attempts", "1000");
        c.put("restart-strategy.fixed-delay.delay", "2 s");
        // a TaskManager killed with -9 is noticed when its heartbeats stop: 20 s rather than 50 s
        c.put("heartbeat.interval", "2000");
        c.put("heartbeat.timeout", "20000");
        c.put("pekko.ask.timeout", "60 s");
        c.put("web.upload.dir", dir.resolve("uploads").toString());
        c.put("classloader.check-leaked-classloader", "false");
        Files.createDirectories(conf);
        StringBuilder yaml = new StringBuilder("# written by cctflow's cluster command on each start\n");
        c.forEach((k, v) -> yaml.append(k).append(": ").append(v.matches("[A-Za-z0-9_.:/ -]*") && !v.contains(": ")
                ? v : "'" + v + "'").append('\n'));
        Files.writeString(conf.resolve("config.yaml"), yaml.toString());
    }

    /**
     * Our class path, expanded from the manifest under {@code java -jar}, without the jars of our
     * code and of what the job jar bundles; {@link WatchedMain} comes in a jar of its own, written
     * to {@code watchedMainJar}, because our own jar would bring all of our class path back with
     * its manifest's {@code Class-Path}.
     */
    static String flinkClassPath(Path watchedMainJar) throws Exception {
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(Pattern.quote(File.pathSeparator))) {
            File file = new File(entry).getAbsoluteFile();
            entries.add(file.toString());
            if (file.getName().endsWith(".jar") && file.isFile()) {
                try (JarFile jar = new JarFile(file)) {
                    String manifestPath = jar.getManifest() == null ? null
                            : jar.getManifest().getMainAttributes().getValue("Class-Path");
                    if (manifestPath != null) {
                        // relative paths (our jar's lib/) or file: URLs (surefire's class-path jar)
                        for (String relative : manifestPath.trim().split("\\s+")) {
                            entries.add(relative.startsWith("file:") ? new File(java.net.URI.create(relative)).toString()
                                    : new File(file.getParentFile(), relative).getAbsolutePath());
                        }
                    }
                }
            }
        }
        String self = new File(WatchedMain.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        writeWatchedMainJar(watchedMainJar);
        List<String> flink = new ArrayList<>();
        flink.add(watchedMainJar.toString());
        for (String e : entries) {
            if (!e.equals(self) && !NOT_FLINK.matcher(new File(e).getName()).matches() && e.endsWith(".jar")) {
                flink.add(e);
            }
        }
        return String.join(File.pathSeparator, flink);
    }

    /**
     * The jar that puts {@link WatchedMain} on Flink's class path: it and the classes it uses
     * ({@link ParentWatchdog}), which the Flink JVMs have no other jar of ours for.
     */
    private static void writeWatchedMainJar(Path jar) throws IOException {
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            for (Class<?> c : List.of(WatchedMain.class, ParentWatchdog.class)) {
                String entry = c.getName().replace('.', '/') + ".class";
                try (var in = c.getClassLoader().getResourceAsStream(entry)) {
                    out.putNextEntry(new java.util.jar.JarEntry(entry));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
    }

    /** Waits until the JobManager reports {@code slots} slots. */
    void awaitSlots(int slots, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            if (!jobManager.isAlive()) {
                throw new IllegalStateException("the JobManager exited; see " + jobManager.log());
            }
            try {
                if (rest.overview().path("slots-total").asInt() >= slots) {
                    return;
                }
            } catch (IOException e) {
                last = e;
            }
            Thread.sleep(500); // polling a starting server
        }
        throw new IllegalStateException("Flink did not offer " + slots + " slots within " + timeout + " (" + last
                + "); see " + jobManager.log());
    }

    public FlinkRest rest() {
        return rest;
    }

    public ChildJvm jobManager() {
        return jobManager;
    }

    public List<ChildJvm> taskManagers() {
        return taskManagers;
    }

    /** Where the job's retained checkpoints are. */
    public Path checkpoints() {
        return dir.resolve("checkpoints");
    }

    @Override
    public void close() {
        for (ChildJvm tm : taskManagers) {
            tm.close();
        }
        jobManager.close();
    }
}
