package io.cctflow.bench.overhead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;

import io.cctflow.servers.KafkaServer;

/**
 * The collector agent's overhead, side by side in one run: a CPU-bound workload
 * ({@link OverheadWorkload}) in fresh child JVMs without agent, with the shaded agent at 20 ms and
 * at 10 ms, and with a plain JFR recording of the same event at 20 ms, in interleaved rounds (each
 * round runs all four, the first one rotating from round to round so no setup always follows the
 * same other). Ratios are taken within a round, then summarised over rounds, so slow drifts of a
 * shared machine cancel. The agents publish to a real broker ({@link KafkaServer}) started here;
 * afterwards their batches are read back for bytes per sample. Prints a Markdown report and writes
 * it to {@code --report-dir}. See bench/README.md.
 */
public final class AgentOverheadBenchmark {
    /** Kept free at the end of {@code --max-time} for reading back and stopping the broker. */
    private static final Duration RESERVE = Duration.ofSeconds(45);
    private static final Duration BROKER_START = Duration.ofMinutes(3);
    /** Assumed cost of a child beyond warm-up and measurement before one has been timed. */
    private static final Duration CHILD_SLACK = Duration.ofSeconds(3);
    /** The agent's default {@code manifest.topic}. */
    private static final String MANIFESTS_TOPIC = "cctflow.manifests";

    private AgentOverheadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        // before the first logger: the broker client's INFO lines would bury the report
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        OverheadOptions options;
        try {
            options = OverheadOptions.parse(args);
        } catch (IllegalArgumentException e) {
            boolean help = e.getMessage().equals("help");
            if (!help) {
                System.err.println("error: " + e.getMessage());
            }
            System.err.println(OverheadOptions.USAGE);
            System.exit(help ? 0 : 2);
            return;
        }
        if (!Files.isRegularFile(options.agentJar())) {
            System.err.println("error: agent jar " + options.agentJar().toAbsolutePath() + " not found; build it with"
                    + " 'mvn -B -ntp -q -DskipTests package -pl bench -am' or pass --agent-jar");
            System.exit(2);
            return;
        }
        System.exit(run(options, String.join(" ", args)));
    }

    private static int run(OverheadOptions options, String args) throws Exception {
        long startNanos = System.nanoTime();
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        Path runDir = Files.createDirectories(options.workDir().resolve("run-" + stamp));
        Path jfc = runDir.resolve("execution-sample-20ms.jfc");
        Files.writeString(jfc, Setup.executionSampleSettings(Setup.JFR_20.periodMillis), StandardCharsets.UTF_8);
        String loadBefore = loadAverage();

        OverheadReport report = new OverheadReport(options.threads(),
                options.warmup().plus(options.measure()).toMillis() / 1000.0);
        // a loaded 2-core machine can take more than the default minute to start a broker
        try (KafkaServer kafka = KafkaServer.builder(runDir.resolve("kafka")).startTimeout(BROKER_START).start()) {
            for (Setup s : Setup.values()) {
                if (s.isAgent()) {
                    kafka.createTopic(s.topic(), 1, Map.of());
                }
            }
            // the agents also publish code manifests (on by default), as in production, where the
            // topic exists: without it their manifest senders would retry and warn all run long
            kafka.createTopic(MANIFESTS_TOPIC, 1, Map.of());
            runRounds(options, kafka.bootstrapServers(), jfc, runDir, report, startNanos);
            for (Setup s : Setup.values()) {
                if (s.isAgent()) {
                    report.addWire(s, WireStats.read(kafka.bootstrapServers(), s.topic()));
                }
            }
        }

        String header = header(options, args, stamp, loadBefore, runDir,
                Duration.ofNanos(System.nanoTime() - startNanos), report.rounds());
        String markdown = report.toMarkdown(header);
        System.out.println(markdown);
        Files.createDirectories(options.reportDir());
        Path file = options.reportDir().resolve("agent-overhead-" + stamp + ".md");
        Files.writeString(file, markdown, StandardCharsets.UTF_8);
        System.err.println("report written to " + file.toAbsolutePath());
        return report.rounds() > 0 ? 0 : 1;
    }

    private static void runRounds(OverheadOptions options, String bootstrap, Path jfc, Path runDir,
            OverheadReport report, long startNanos) throws IOException, InterruptedException {
        Setup[] setups = Setup.values();
        Duration perChild = options.warmup().plus(options.measure()).plus(CHILD_SLACK);
        Duration roundEstimate = perChild.multipliedBy(setups.length);
        for (int round = 1; round <= options.rounds(); round++) {
            Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
            if (elapsed.plus(roundEstimate).plus(RESERVE).compareTo(options.maxTime()) > 0) {
                System.err.printf(Locale.ROOT, "stopping after %d round(s): another (~%d s) would pass --max-time %s%n",
                        round - 1, roundEstimate.toSeconds(), options.maxTime());
                break;
            }
            long roundStart = System.nanoTime();
            ChildRun.Result[] results = new ChildRun.Result[setups.length];
            for (int i = 0; i < setups.length; i++) {
                Setup s = setups[(round - 1 + i) % setups.length];
                ChildRun.Result r = ChildRun.run(s, round,
                        s.jvmOptions(options.agentJar(), bootstrap, jfc, options.flush(), options.stackDepth(), round),
                        options, runDir);
                results[s.ordinal()] = r;
                System.err.printf(Locale.ROOT, "round %d/%d %-16s %10.1f ops/s %10.1f ops/CPU-s  heap after GC %6.1f MiB%n", round,
                        options.rounds(), s.label, r.opsPerSecond(), r.opsPerCpuSecond(), r.heapAfterGcBytes() / 1048576.0);
            }
            report.addRound(results);
            Duration took = Duration.ofNanos(System.nanoTime() - roundStart);
            if (took.compareTo(roundEstimate) > 0 || round == 1) {
                roundEstimate = took;
            }
        }
    }

    private static String header(OverheadOptions o, String args, String stamp, String loadBefore, Path runDir,
            Duration took, int rounds) {
        return String.format(Locale.ROOT, String.join("\n",
                "# Collector agent overhead (%s UTC)",
                "",
                "Command: `java -cp 'bench/target/classes:bench/target/lib/*' %s %s`",
                "",
                "- machine: %d cores, %s %s, %s; **shared** (other builds and tests may run): load average"
                        + " %s at the start, %s at the end",
                "- %d round(s) of 4 child JVMs (order rotated per round), each: %d workload threads, %d ms warm-up,"
                        + " %d ms measured, `-Xms%s -Xmx%s -XX:+UseG1GC`; whole run %d s",
                "- agent: `%s`, `period` 20 ms or 10 ms, `flush=%s`, `stackdepth=%d`;"
                        + " plain JFR: `-XX:StartFlightRecording` with jdk.ExecutionSample alone at 20 ms"
                        + " (maxage 2m, maxsize 32m, as the agent's stream); every JFR child also gets"
                        + " `-XX:FlightRecorderOptions:stackdepth=%d`",
                "- children's output: `%s`",
                ""),
                stamp, AgentOverheadBenchmark.class.getName(), args,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), System.getProperty("os.name") + " " + System.getProperty("os.arch"),
                loadBefore, loadAverage(),
                rounds, o.threads(), o.warmup().toMillis(), o.measure().toMillis(), o.heap(), o.heap(), took.toSeconds(),
                o.agentJar().getFileName(), OverheadOptions.agentDuration(o.flush()), o.stackDepth(), o.stackDepth(),
                runDir);
    }

    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).split(" ");
            return parts[0] + " / " + parts[1] + " / " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

}
