package io.cctflow.agent;

import static io.cctflow.agent.ShippedJar.JAR;
import static io.cctflow.agent.ShippedJar.LOGS;
import static io.cctflow.agent.ShippedJar.TEST_CLASSES;
import static io.cctflow.agent.ShippedJar.java;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.AppInfoParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.cctflow.servers.TestServers;
import io.cctflow.workload.PlainWorkload;

/**
 * Tests the shaded agent jar as it ships: attached with {@code -javaagent} to a separate host
 * JVM. Runs in failsafe after {@code package}; the jar path comes from the POM. The runs without
 * JFR publish to the shared real broker ({@link TestServers}), so that anything the agent started
 * anyway would show in their topics.
 */
class AgentJarIT {

    /** What the agent logs once its sender failed to reach the broker with a queued batch. */
    private static final String KAFKA_UNREACHABLE = "[cctflow-agent] WARN Kafka unreachable, ";

    /** What a host JVM did. */
    private record Run(int exitCode, String stdout, String stderr, long exitedAtMillis) {
    }

    /** Done by the test while the host runs, given the host's stderr file. */
    private interface WhileRunning {
        void during(Path stderr) throws Exception;
    }

    @Test
    @Timeout(180)
    void hostRunsAndExitsNormallyWhileTheBrokerIsUnreachable() throws Exception {
        // until the warning asserted below: on a loaded machine (load average 40 on 2 cores seen)
        // the producer's first failed attempt (metadata wait of max.block.ms = 1 s after class
        // loading) took longer than 3 s, so no fixed duration is safe
        Run run = runHostUntilLogged("unreachable-broker",
                "bootstrap.servers=127.0.0.1:1,service=t,version=v,flush=1000", KAFKA_UNREACHABLE);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stdout()).contains("workload done true");
        assertThat(run.stderr()).contains("[cctflow-agent] started: bootstrap.servers=127.0.0.1:1");
        // a batch was built and encoded by the relocated Avro and queued; the relocated producer
        // found no broker, so the sender backed off, and at exit the unsent batches were counted
        assertThat(run.stderr()).contains(KAFKA_UNREACHABLE);
        assertThat(run.stderr()).containsPattern("\\[cctflow-agent\\] \\d+ unsent batch\\(es\\) at exit, dropped");
        assertThat(run.stderr()).doesNotContain("flush failed", "NoClassDefFoundError",
                "NoSuchMethodError", "SLF4J", "sampling stopped", "attached to a JVM");
        // the producer's app-info MBean under our domain, nothing under Kafka's, where a host's
        // JMX exporter would take our producer for one of the host's
        String domains = run.stdout().replaceAll("(?s).*jmx domains \\[([^]]*)].*", "$1");
        assertThat(List.of(domains.split(", "))).contains("io.cctflow.agent.kafka.producer")
                .noneMatch(d -> d.startsWith("kafka"));
        // the shutdown hook's budget is 2 s; allow for JVM tear-down on a loaded machine
        long doneAt = Long.parseLong(run.stdout().replaceAll("(?s).*workload done true at (\\d+).*", "$1"));
        assertThat(run.exitedAtMillis() - doneAt).as("time from end of main to exit, ms")
                .isLessThan(5_000);
    }

    /**
     * Bootstrap servers that do not resolve (a pod whose DNS does not answer yet): the agent keeps
     * sampling and its sender keeps trying to create the producer, where it used to give up for
     * the JVM's whole life.
     */
    @Test
    @Timeout(120)
    void bootstrapServersThatDoNotResolveDisableNothingAndNeverStopTheHost() throws Exception {
        Run run = runHostUntilLogged("unresolvable-broker",
                "bootstrap.servers=kafka.cctflow.invalid:9092,service=t,version=v,flush=1000", KAFKA_UNREACHABLE);

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stdout()).contains("workload done true");
        assertThat(run.stderr()).contains(
                "[cctflow-agent] WARN cannot create the Kafka producer for kafka.cctflow.invalid:9092: ",
                "[cctflow-agent] started: bootstrap.servers=kafka.cctflow.invalid:9092",
                // tried again by the sender for the batches the flusher queued
                KAFKA_UNREACHABLE);
        assertThat(run.stderr()).containsPattern("\\[cctflow-agent\\] \\d+ unsent batch\\(es\\) at exit, dropped");
        assertThat(run.stderr()).doesNotContain("agent disabled", "agent stopped;", "NoClassDefFoundError");
        long doneAt = Long.parseLong(run.stdout().replaceAll("(?s).*workload done true at (\\d+).*", "$1"));
        assertThat(run.exitedAtMillis() - doneAt).as("time from end of main to exit, ms")
                .isLessThan(5_000);
    }

    @Test
    @Timeout(120)
    void badConfigurationIsReportedAndNeverStopsTheHost() throws Exception {
        Run run = runHost("bad-config",
                "bootstrap.servers=127.0.0.1:1,period=fast,stackdepth=-1,nonsense=1", "500",
                "--await-agent");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stderr()).contains("bad value 'fast' for agent argument period",
                "agent argument stackdepth", "unknown agent argument 'nonsense'");
    }

    @Test
    @Timeout(180)
    void disabledJfrIsReportedOnceAndNothingIsStartedOrPublished() throws Exception {
        Run run = runWithoutJfr("jfr-disabled", List.of("-XX:-FlightRecorder"));

        assertThat(run.stderr()).contains("FlightRecorder.isAvailable() is false");
    }

    @Test
    @Timeout(180)
    void runtimeWithoutTheJfrModuleIsReportedOnceAndNothingIsStartedOrPublished() throws Exception {
        // a jlinked runtime without jdk.jfr, as far as the host can tell
        Run run = runWithoutJfr("jfr-module-missing",
                List.of("--limit-modules", "java.base,java.instrument,java.management"));

        assertThat(run.stderr()).contains("the module jdk.jfr is missing", "jdk/jfr/FlightRecorder");
    }

    @Test
    @Timeout(180)
    void recordingThatCannotStartIsReportedAsJfrUnavailableAndNothingIsStartedOrPublished() throws Exception {
        // JFR creates its repository under java.io.tmpdir when the first recording starts
        Path notADirectory = Files.writeString(Files.createDirectories(LOGS).resolve("tmpdir-is-a-file"), "");
        Run run = runWithoutJfr("jfr-cannot-start", List.of("-Djava.io.tmpdir=" + notADirectory));

        assertThat(run.stderr()).contains("JFR is not available in this JVM (could not start a recording: ");
    }

    /**
     * Runs {@link PlainWorkload} (a package the agent fingerprints) with the agent configured for the
     * shared real broker, with code fingerprints on (the default) and a short flush interval, and
     * checks that the host was unaffected, the agent said one line and nothing else, and that it
     * published neither a sample batch nor a code manifest.
     */
    private Run runWithoutJfr(String name, List<String> jvmOptions) throws Exception {
        TestServers servers = TestServers.get();
        String samples = name + "-samples-" + UUID.randomUUID();
        String manifests = name + "-manifests-" + UUID.randomUUID();
        servers.createTopic(samples, 1);
        servers.createTopic(manifests, 1);
        Run run = runHost(name, jvmOptions, "bootstrap.servers=" + servers.kafkaBootstrapServers()
                + ",topic=" + samples + ",manifest.topic=" + manifests + ",service=t,flush=1000",
                PlainWorkload.class, "2000");

        assertHostUnaffectedWithoutJfr(run);
        // the host has exited: whatever its agent sent is in the log by now
        assertThat(recordsIn(servers, samples)).as("sample batches published").isZero();
        assertThat(recordsIn(servers, manifests)).as("code manifests published").isZero();
        return run;
    }

    /** The host waited for the agent's start-up thread to end, so its report is in stderr. */
    private static void assertHostUnaffectedWithoutJfr(Run run) {
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stdout()).contains("workload done true");
        String warning = "[cctflow-agent] WARN JFR is not available in this JVM (";
        assertThat(run.stderr()).contains(warning, "); the agent does nothing");
        // nothing else started: no producer, no sender or flusher, no further lines
        assertThat(run.stderr().lines().filter(l -> l.startsWith("[cctflow-agent]")))
                .as(run.stderr()).singleElement().asString().startsWith(warning);
        long doneAt = Long.parseLong(run.stdout().replaceAll("(?s).*workload done true at (\\d+).*", "$1"));
        assertThat(run.exitedAtMillis() - doneAt).as("time from end of main to exit, ms")
                .isLessThan(5_000);
    }

    /** How many records the topic's only partition holds. */
    private static long recordsIn(TestServers servers, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers.kafkaBootstrapServers());
        TopicPartition partition = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            return consumer.endOffsets(List.of(partition), Duration.ofSeconds(30)).get(partition);
        }
    }

    @Test
    @Timeout(180)
    void truncatedStacksAreReportedWithTheFlagThatFixesThem() throws Exception {
        // 200-deep recursion, stacks cut at 16 frames: every busy sample is truncated
        Run run = runHost("truncated", List.of("-D" + BusyWorkload.DEPTH_PROPERTY + "=200"),
                "bootstrap.servers=127.0.0.1:1,service=t,flush=1000,stackdepth=16,period=19ms",
                "3000", "--await-agent");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        assertThat(run.stdout()).contains("workload done true");
        assertThat(run.stderr()).contains("period=19ms", "stackdepth=16");
        assertThat(run.stderr()).containsPattern("\\[cctflow-agent\\] WARN \\d+ of \\d+ samples \\([\\d.]+ %\\)"
                + " in this batch were truncated at JFR's stack depth of 16 frames; restart the JVM"
                + " with -XX:FlightRecorderOptions:stackdepth=32 \\(and the agent key stackdepth=32\\)");
        // rate limited: several batches carried the warning, the log says it once
        assertThat(run.stderr().lines().filter(l -> l.contains("were truncated at"))).hasSize(1);
    }

    /**
     * JFR started before the agent (here by {@code -XX:StartFlightRecording}) keeps its depth:
     * the agent says so at start, with the flag, before any batch shows the truncation; and says
     * nothing when the JVM already asked for enough.
     */
    @Test
    @Timeout(180)
    void jfrAlreadyRunningAtASmallerDepthIsReportedAtStartWithTheFlag() throws Exception {
        String args = "bootstrap.servers=127.0.0.1:1,service=t,flush=1000";
        Run shallow = runHost("jfr-before-agent", List.of("-XX:StartFlightRecording"), args, "1000",
                "--await-agent");
        Run deep = runHost("jfr-before-agent-deep",
                List.of("-XX:FlightRecorderOptions:stackdepth=256", "-XX:StartFlightRecording"), args, "1000",
                "--await-agent");

        assertThat(shallow.exitCode()).as(shallow.stderr()).isZero();
        assertThat(shallow.stderr()).contains("[cctflow-agent] WARN JFR was already running when the agent"
                + " started, with a stack depth of 64 frames, which cannot change now: deeper stacks are"
                + " truncated (the batches' stats count them); restart the JVM with"
                + " -XX:FlightRecorderOptions:stackdepth=256");
        assertThat(deep.exitCode()).as(deep.stderr()).isZero();
        assertThat(deep.stderr()).contains("[cctflow-agent] started: ").doesNotContain("JFR was already running");
    }

    /**
     * JFR's start redefines JDK classes (those its file, socket and error events instrument). With
     * the capability to retransform held from the JVM's start, which the manifest's
     * {@code Can-Retransform-Classes} gives a {@code -javaagent}, HotSpot throws away only the
     * compiled code that depends on them; without it the first redefinition throws away all of it
     * (1,254 of 1,371 methods in a diagnostic run of the bench's workload), and the host runs in
     * the interpreter until it has recompiled. Read from {@code -XX:+PrintCompilation} and the
     * redefinition log, both written to stdout in the order they happened.
     */
    @Test
    @Timeout(180)
    void jfrStartingWithTheAgentKeepsTheHostsCompiledCode() throws Exception {
        Run run = runHost("compiled-code-at-jfr-start",
                List.of("-XX:+PrintCompilation", "-Xlog:redefine+class+load=info:stdout"),
                "bootstrap.servers=127.0.0.1:1,service=t,flush=1000", "2000", "--await-agent");

        assertThat(run.exitCode()).as(run.stderr()).isZero();
        CodeThrownAway thrownAway = CodeThrownAway.atFirstRedefinition(run.stdout().lines().toList());
        assertThat(thrownAway.compiledBefore()).as("methods compiled before JFR's start").isGreaterThan(100);
        assertThat(thrownAway.thrownAway()).as("of the %d methods compiled before JFR's start, made not entrant"
                + " within %d ms of it", thrownAway.compiledBefore(), CodeThrownAway.WINDOW_MILLIS)
                .isLessThan(thrownAway.compiledBefore() / 4);
    }

    /**
     * How much of the code compiled before the first class redefinition was made not entrant just
     * after it, from a {@code -XX:+PrintCompilation} and {@code -Xlog:redefine+class+load} stdout.
     */
    record CodeThrownAway(int compiledBefore, int thrownAway) {

        /** After the redefinition; the whole JVM's code took 13 ms to list on this machine. */
        static final int WINDOW_MILLIS = 100;

        /** A PrintCompilation line: milliseconds since start, compile id. */
        private static final Pattern COMPILATION = Pattern.compile("^\\s*(\\d+)\\s+(\\d+)\\s.*");
        private static final Pattern REDEFINED = Pattern.compile("^\\[(\\d+)\\.(\\d{3})s].*redefined name=.*");

        static CodeThrownAway atFirstRedefinition(List<String> stdout) {
            int at = -1;
            for (int i = 0; i < stdout.size() && at < 0; i++) {
                if (REDEFINED.matcher(stdout.get(i)).matches()) {
                    at = i;
                }
            }
            assertThat(at).as("a class redefined at JFR's start (JDK 17's JFR redefines its instrumented"
                    + " JDK classes; without any this test proves nothing)").isNotNegative();
            Matcher when = REDEFINED.matcher(stdout.get(at));
            when.matches();
            long redefinedAt = Long.parseLong(when.group(1)) * 1000 + Long.parseLong(when.group(2));

            Set<String> compiled = new HashSet<>();
            for (String line : stdout.subList(0, at)) {
                Matcher m = COMPILATION.matcher(line);
                if (m.matches()) {
                    if (line.contains("made not entrant") || line.contains("COMPILE SKIPPED")) {
                        compiled.remove(m.group(2));
                    } else {
                        compiled.add(m.group(2));
                    }
                }
            }
            int thrownAway = 0;
            for (String line : stdout.subList(at, stdout.size())) {
                Matcher m = COMPILATION.matcher(line);
                if (m.matches() && Long.parseLong(m.group(1)) > redefinedAt + WINDOW_MILLIS) {
                    break;
                }
                if (m.matches() && line.contains("made not entrant") && compiled.contains(m.group(2))) {
                    thrownAway++;
                }
            }
            return new CodeThrownAway(compiled.size(), thrownAway);
        }
    }

    /**
     * The resources the agent jar may hold besides classes: licences and notices, the manifest,
     * service files of relocated interfaces, and our own non-native resources (Kafka's version
     * file among them, relocated with the client that reads it).
     */
    private static final Pattern JAR_RESOURCES = Pattern.compile(
            "META-INF/(MANIFEST\\.MF|DEPENDENCIES|[A-Za-z-]*(LICENSE|NOTICE)(\\.txt)?|services/io\\.cctflow\\.agent\\..+)"
                    + "|LICENSE|NOTICE"
                    // our own resources, but no native library even under our prefix
                    + "|io/cctflow/agent/.+(?<!\\.so|\\.dll|\\.dylib|\\.jnilib)");

    @Test
    void jarHoldsNoClassOutsideOurPackage() throws IOException {
        List<String> foreign = new ArrayList<>();
        List<String> otherFiles = new ArrayList<>();
        int classes = 0;
        try (JarFile jar = new JarFile(JAR.toFile())) {
            for (JarEntry e : (Iterable<JarEntry>) jar.stream()::iterator) {
                String name = e.getName();
                if (name.endsWith(".class")) {
                    classes++;
                    if (!name.startsWith("io/cctflow/agent/")) {
                        foreign.add(name);
                    }
                } else if (!e.isDirectory() && !JAR_RESOURCES.matcher(name).matches()) {
                    otherFiles.add(name);
                }
            }
        }
        assertThat(classes).as("classes in %s", JAR).isGreaterThan(1_000);
        assertThat(foreign).as("classes outside io/cctflow/agent/ in %s", JAR).isEmpty();
        // a native library (a JNI codec) could never link once relocated, and any other file at
        // the root shares the host's class path: only these may ship
        assertThat(otherFiles).as("files other than classes and the allowed resources in %s", JAR).isEmpty();
    }

    /**
     * Kafka's client reads its version from a resource by name. The agent's copy is relocated with
     * the client: its relocated client still finds it, and a host's Kafka client in a class loader
     * below the agent jar's (parents first, as in application servers and Spring Boot) does not
     * find ours in place of its own.
     */
    @Test
    void kafkaVersionFileIsRelocatedWithTheClientThatReadsIt() throws Exception {
        try (URLClassLoader agent = new URLClassLoader(new URL[] {JAR.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> parser = Class.forName(
                    "io.cctflow.agent.shaded.org.apache.kafka.common.utils.AppInfoParser", true, agent);
            Object version = parser.getMethod("getVersion").invoke(null);

            assertThat(version).isEqualTo(AppInfoParser.getVersion()).isNotEqualTo("unknown");
            assertThat(agent.getResource("kafka/kafka-version.properties")).isNull();
        }
    }

    @Test
    void manifestNamesTheAgentEntryPoints() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            String entry = CctflowAgent.class.getName();
            assertThat(main.getValue("Premain-Class")).isEqualTo(entry);
            assertThat(main.getValue("Agent-Class")).isEqualTo(entry);
            assertThat(main.getValue("Main-Class")).isEqualTo(entry);
            // held from the JVM's start so that JFR's start keeps the host's compiled code; never used
            assertThat(main.getValue("Can-Retransform-Classes")).isEqualTo("true");
            assertThat(main.getValue("Can-Redefine-Classes")).isNull();
        }
    }

    @Test
    @Timeout(60)
    void runningTheJarPrintsTheUsage() throws Exception {
        Run run = run("usage", List.of(java(), "-jar", JAR.toString()));

        assertThat(run.exitCode()).isZero();
        assertThat(run.stdout()).contains("-javaagent:", "| `bootstrap.servers` |");
    }

    private Run runHost(String name, String agentArgs, String... workloadArgs) throws Exception {
        return runHost(name, List.of(), agentArgs, workloadArgs);
    }

    private Run runHost(String name, List<String> jvmOptions, String agentArgs, String... workloadArgs)
            throws Exception {
        return runHost(name, jvmOptions, agentArgs, BusyWorkload.class, workloadArgs);
    }

    private Run runHost(String name, List<String> jvmOptions, String agentArgs, Class<?> mainClass,
            String... workloadArgs) throws Exception {
        List<String> command = new ArrayList<>(List.of(java(), "-Xmx256m"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-javaagent:" + JAR + "=" + agentArgs, "-cp", TEST_CLASSES.toString(),
                mainClass.getName()));
        command.addAll(List.of(workloadArgs));
        return run(name, command);
    }

    /**
     * A host with {@link BusyWorkload} busy once the agent runs, until its stderr holds {@code
     * logged} (at most 60 s): then the test's stop file ends the busy time and the host exits
     * normally.
     */
    private static Run runHostUntilLogged(String name, String agentArgs, String logged) throws Exception {
        Files.createDirectories(LOGS);
        Path stop = LOGS.resolve(name + ".stop");
        Files.deleteIfExists(stop);
        List<String> command = List.of(java(), "-Xmx256m", "-javaagent:" + JAR + "=" + agentArgs, "-cp",
                TEST_CLASSES.toString(), BusyWorkload.class.getName(), "60000", "--await-agent", stop.toString());
        return run(name, command, err -> {
            await("host logged " + logged).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .until(() -> Files.readString(err, StandardCharsets.UTF_8).contains(logged));
            Files.writeString(stop, "stop");
        });
    }

    private static Run run(String name, List<String> command) throws Exception {
        return run(name, command, err -> {
        });
    }

    private static Run run(String name, List<String> command, WhileRunning whileRunning) throws Exception {
        Files.createDirectories(LOGS);
        Path out = LOGS.resolve(name + ".stdout");
        Path err = LOGS.resolve(name + ".stderr");
        Process p = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            whileRunning.during(err);
        } catch (Exception | Error e) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw e;
        }
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("host JVM '" + name + "' did not exit within 120 s: "
                    + Files.readString(err, StandardCharsets.UTF_8));
        }
        long exitedAt = System.currentTimeMillis();
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), exitedAt);
    }

}
