package io.cctflow.bench.overhead;

import java.io.IOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.cctflow.servers.KafkaServer;

/**
 * The collector agent's overhead, side by side in one run: a CPU-bound workload
 * ({@link OverheadWorkload}) in child JVMs without agent, with the shaded agent at 20 ms and at
 * 10 ms, and with a plain JFR recording of the same event at 20 ms. Per round one fresh child per
 * setup runs; all are frozen ({@code SIGSTOP}) except one, which is thawed for a short slice; a
 * cycle gives every child one slice, in a shuffled order. Ratios are taken per cycle (slices
 * seconds apart, so the drift of a shared machine cancels), summarised over cycles and rounds
 * (fresh JVMs per round average over JVM-specific effects such as code layout). The agents publish
 * to a real broker ({@link KafkaServer}) started here; afterwards their batches are read back for
 * bytes per sample. Prints a Markdown report and writes it to {@code --report-dir}. See
 * bench/README.md.
 */
public final class AgentOverheadBenchmark {
    /** Kept free at the end of {@code --max-time} for reading back and stopping the broker. */
    private static final Duration RESERVE = Duration.ofSeconds(45);
    private static final Duration BROKER_START = Duration.ofMinutes(3);
    /** Assumed cost of starting and ending a child, before a round has been timed. */
    private static final Duration CHILD_SLACK = Duration.ofSeconds(8);
    /** Assumed cost of a slice beyond its thawed time (reading /proc, signals), before a round has been timed. */
    private static final Duration SLICE_SLACK = Duration.ofMillis(30);
    /** The agent's default {@code manifest.topic}. */
    private static final String MANIFESTS_TOPIC = "cctflow.manifests";

    private AgentOverheadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        OverheadOptions options = optionsOrExit(args);
        System.exit(run(options, String.join(" ", args)));
    }

    /**
     * Quiets the broker's logging, then parses and checks the options (the agent jar exists;
     * nothing listens where {@link Setup#AGENT_20_AWAY} needs a refused connection). On a bad one
     * prints what to fix and the usage and exits with 2; on {@code --help} prints the usage and
     * exits with 0.
     */
    static OverheadOptions optionsOrExit(String[] args) {
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
            return null;
        }
        if (!Files.isRegularFile(options.agentJar())) {
            System.err.println("error: agent jar " + options.agentJar().toAbsolutePath() + " not found; build it with"
                    + " 'mvn -B -ntp -q -DskipTests package -pl bench -am' or pass --agent-jar");
            System.exit(2);
        }
        if (options.setups().contains(Setup.AGENT_20_AWAY) && !isUnreachable(Setup.UNREACHABLE_BROKER)) {
            System.err.println("error: setup " + Setup.AGENT_20_AWAY.id() + " needs nothing listening on "
                    + Setup.UNREACHABLE_BROKER + ", but a connection there succeeded; stop that server or leave out "
                    + Setup.AGENT_20_AWAY.id());
            System.exit(2);
        }
        return options;
    }

    /** The time now as the reports and run directories name it, UTC: {@code 20261126-145301}. */
    static String stampNow() {
        return DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
    }

    /** A new directory {@code name} under {@code --work-dir}, with the .jfc files the setups name. */
    static Path newRunDir(OverheadOptions options, String name) throws IOException {
        Path runDir = Files.createDirectories(options.workDir().resolve(name));
        Files.writeString(runDir.resolve(Setup.SAMPLES_JFC), Setup.executionSampleSettings(Setup.JFR_20.periodMillis),
                StandardCharsets.UTF_8);
        Files.writeString(runDir.resolve(Setup.NO_EVENTS_JFC), Setup.noEventSettings(), StandardCharsets.UTF_8);
        return runDir;
    }

    /** Starts a broker in {@code dir} (a loaded 2-core machine can take minutes). */
    static KafkaServer startBroker(Path dir) {
        return KafkaServer.builder(dir).startTimeout(BROKER_START).start();
    }

    /** The topics the agents of {@code setups} publish to. */
    static void createTopics(KafkaServer kafka, List<Setup> setups) {
        for (Setup s : setups) {
            if (s.publishes()) {
                kafka.createTopic(s.topic(), 1, Map.of());
            }
        }
        // the agents also publish code manifests (on by default), as in production, where the
        // topic exists: without it their manifest senders would retry and warn all run long
        kafka.createTopic(MANIFESTS_TOPIC, 1, Map.of());
    }

    /** Whether a TCP connection to {@code hostPort} is refused (or times out), as to a stopped broker. */
    static boolean isUnreachable(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(hostPort.substring(0, colon),
                    Integer.parseInt(hostPort.substring(colon + 1))), 1000);
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static int run(OverheadOptions options, String args) throws Exception {
        long startNanos = System.nanoTime();
        String stamp = stampNow();
        Path runDir = newRunDir(options, "run-" + stamp);
        PlaceboAgent.writeJar(runDir);
        String loadBefore = loadAverage();
        int preloaded = 0;

        OverheadReport report = new OverheadReport(options.threads(), options.setups(), options.quiet(),
                Runtime.getRuntime().availableProcessors());
        // a loaded 2-core machine can take more than the default minute to start a broker
        try (KafkaServer kafka = startBroker(runDir.resolve("kafka"));
                ProcessFreezer freezer = new ProcessFreezer()) {
            createTopics(kafka, options.setups());
            Optional<Path> preload = Optional.empty();
            if (preloads(options)) {
                kafka.createTopic(AgentClassLoads.TOPIC, 1, Map.of());
                preload = Optional.of(AgentClassLoads.calibrate(options, kafka.bootstrapServers(), runDir, freezer));
                preloaded = Files.readAllLines(preload.get(), StandardCharsets.UTF_8).size();
            }
            runRounds(options, kafka.bootstrapServers(), runDir, report, freezer, startNanos, preload);
            for (Setup s : options.setups()) {
                if (s.publishes()) {
                    report.addWire(s, WireStats.read(kafka.bootstrapServers(), s.topic()));
                }
            }
        }

        String header = header(options, args, stamp, loadBefore, runDir,
                Duration.ofNanos(System.nanoTime() - startNanos), report.rounds(), preloaded);
        String markdown = report.toMarkdown(header);
        System.out.println(markdown);
        Files.createDirectories(options.reportDir());
        Path file = options.reportDir().resolve("agent-overhead-" + stamp + ".md");
        Files.writeString(file, markdown, StandardCharsets.UTF_8);
        System.err.println("report written to " + file.toAbsolutePath());
        return report.rounds() > 0 ? 0 : 1;
    }

    private static void runRounds(OverheadOptions options, String bootstrap, Path runDir, OverheadReport report,
            ProcessFreezer freezer, long startNanos, Optional<Path> preload) throws IOException, InterruptedException {
        int cycles = (options.warmupCycles() + options.measuredCycles()) * (attaches(options) ? 2 : 1);
        Duration roundEstimate = options.slice().plus(SLICE_SLACK).multipliedBy((long) cycles * options.setups().size())
                .plus(CHILD_SLACK.multipliedBy(options.setups().size())).plus(options.prewarm());
        try (Writer csv = Files.newBufferedWriter(runDir.resolve("slices.csv"), StandardCharsets.UTF_8)) {
            csv.write("round,cycle,measured,agentAttached,position,setup,ops,wallNanos,workersNanos,agentNanos,"
                    + "jfrNanos,jitNanos,"
                    + "gcNanos,otherNanos,othersMachineNanos\n");
            for (int round = 1; round <= options.rounds(); round++) {
                Duration elapsed = Duration.ofNanos(System.nanoTime() - startNanos);
                if (elapsed.plus(roundEstimate).plus(RESERVE).compareTo(options.maxTime()) > 0) {
                    System.err.printf(Locale.ROOT, "stopping after %d round(s): another (~%d s) would pass --max-time %s%n",
                            round - 1, roundEstimate.toSeconds(), options.maxTime());
                    break;
                }
                long roundStart = System.nanoTime();
                report.addRound(runRound(options, bootstrap, runDir, report, freezer, round, csv, preload));
                Duration took = Duration.ofNanos(System.nanoTime() - roundStart);
                if (took.compareTo(roundEstimate) > 0 || round == 1) {
                    roundEstimate = took;
                }
            }
        }
    }

    /**
     * Whether some child loads the agent's classes at start, so the run calibrates their list
     * first: every child of a run that attaches (unless {@code --preload no}), and
     * {@link Setup#JFR_20_PRELOADED}'s.
     */
    private static boolean preloads(OverheadOptions options) {
        return (attaches(options) && options.preload()) || options.setups().stream().anyMatch(Setup::preloadsAgentClasses);
    }

    /** Whether the rounds attach the agent halfway ({@link Setup#isAttached}). */
    private static boolean attaches(OverheadOptions options) {
        return options.attached().isPresent();
    }

    /**
     * Starts one child per setup, runs the warm-up and measured cycles, ends the children. With an
     * {@linkplain Setup#isAttached attached} setup it then attaches the agent to that child (and a
     * placebo to its control) and runs the warm-up and measured cycles again.
     *
     * @param preload the classes every child loads at start ({@link AgentClassLoads}), if any
     */
    private static Round runRound(OverheadOptions options, String bootstrap, Path runDir, OverheadReport report,
            ProcessFreezer freezer, int round, Writer csv, Optional<Path> preload)
            throws IOException, InterruptedException {
        Map<Setup, Child> children = new EnumMap<>(Setup.class);
        Random order = new Random(options.seed() * 1_000_003L + round);
        try {
            List<Setup> startOrder = new ArrayList<>(options.setups());
            Collections.shuffle(startOrder, order);
            for (Setup s : startOrder) {
                children.put(s, Child.start(s, round, s.jvmOptions(options.agentJar(), bootstrap, runDir,
                        options.flush(), options.stackDepth(), round), options, runDir, freezer,
                        attaches(options) || s.preloadsAgentClasses() ? preload : Optional.empty()));
                System.err.printf(Locale.ROOT, "round %d: %s started (JFR wait %d ms), frozen%n", round, s.label,
                        children.get(s).awaitMillis());
            }
            if (!options.prewarm().isZero()) {
                // every child at once, unsliced: the workload's JIT settles in a fraction of the sliced time
                for (Child c : children.values()) {
                    freezer.thaw(c.pid());
                }
                TimeUnit.NANOSECONDS.sleep(options.prewarm().toNanos());
                for (Child c : children.values()) {
                    freezer.freeze(c.pid());
                }
                System.err.printf(Locale.ROOT, "round %d: all children ran together for %d s, frozen%n", round,
                        options.prewarm().toSeconds());
            }
            List<Slice[]> measured = runCycles(options, children, report, freezer, order, round, 0, false, csv);
            List<Slice[]> beforeAttach = List.of();
            if (attaches(options)) {
                beforeAttach = measured;
                Setup attached = options.attached().orElseThrow();
                long attachStart = System.nanoTime();
                Path placebo = runDir.resolve(PlaceboAgent.JAR);
                if (options.attachPlacebo()) {
                    children.get(attached).attachAgent(freezer, placebo, "");
                } else {
                    children.get(attached).attachAgent(freezer, options.agentJar(),
                            attached.agentArguments(bootstrap, options.flush(), options.stackDepth(), round));
                }
                // the control goes through an attach too, of an agent that does nothing (PlaceboAgent)
                children.get(attached.control()).attachAgent(freezer, placebo, "");
                System.err.printf(Locale.ROOT, "round %d: %s attached to %s, a placebo agent to %s (%d ms thawed),"
                        + " frozen%n", round, options.attachPlacebo() ? "a placebo agent (A/A control)" : "our agent",
                        attached.label, attached.control().label, (System.nanoTime() - attachStart) / 1_000_000);
                measured = runCycles(options, children, report, freezer, order, round,
                        options.warmupCycles() + options.measuredCycles(), true, csv);
            }
            Map<Setup, Round.ChildEnd> ends = new EnumMap<>(Setup.class);
            for (Setup s : options.setups()) {
                Child c = children.get(s);
                SliceProtocol.Result result = c.end(freezer);
                ends.put(s, new Round.ChildEnd(c.awaitMillis(), result.heapAfterGcBytes(), result.rssBytes(),
                        c.agentWarnings()));
            }
            children.clear();
            return new Round(round, measured, beforeAttach, ends, loadAverage());
        } finally {
            for (Child c : children.values()) {
                c.kill();
            }
        }
    }

    /**
     * The warm-up cycles, then the measured ones, which it returns; every slice goes to {@code csv}.
     *
     * @param firstCycle cycles of this round run before (their number continues in {@code csv})
     * @param attached   whether the {@linkplain Setup#isAttached attached} setup's agent has been attached
     */
    private static List<Slice[]> runCycles(OverheadOptions options, Map<Setup, Child> children, OverheadReport report,
            ProcessFreezer freezer, Random order, int round, int firstCycle, boolean attached, Writer csv)
            throws IOException, InterruptedException {
        List<Slice[]> measured = new ArrayList<>();
        int warm = options.warmupCycles();
        int total = warm + options.measuredCycles();
        for (int cycle = 0; cycle < total; cycle++) {
            List<Setup> sequence = new ArrayList<>(options.setups());
            Collections.shuffle(sequence, order);
            Slice[] slices = new Slice[Setup.values().length];
            for (int position = 0; position < sequence.size(); position++) {
                Setup s = sequence.get(position);
                Slice slice = children.get(s).measure(freezer, options.slice());
                slices[s.ordinal()] = slice;
                if (!s.isAttached() || attached) {
                    // thawed time under the agent, for samples per thawed second
                    report.addThawed(s, slice.wallNanos() / 1e9);
                }
                csv.write(String.format(Locale.ROOT, "%d,%d,%b,%b,%d,%s,%d,%d,%s,%d%n", round, firstCycle + cycle + 1,
                        cycle >= warm, attached, position, s.id(), slice.ops(), slice.wallNanos(),
                        ThreadCpu.format(slice.cpuByKind()).replaceAll("[a-z]+=", "").replace(' ', ','),
                        slice.othersNanos()));
            }
            csv.flush(); // a run cut short still leaves every complete cycle
            if (cycle >= warm) {
                measured.add(slices);
            }
            if ((cycle + 1) % 10 == 0 || cycle + 1 == total) {
                System.err.printf(Locale.ROOT, "round %d: cycle %d/%d (%d warm-up)%s%s%n", round, cycle + 1, total,
                        warm, attached ? ", agent attached" : "", cycle >= warm ? progress(measured) : "");
            }
        }
        return measured;
    }

    /**
     * The running median of agent 20 ms / none (or the first other setup / none; without none, plain
     * JFR with the agent attached / plain JFR), for the progress line.
     */
    private static String progress(List<Slice[]> measured) {
        Slice[] first = measured.get(0);
        for (Setup s : Setup.values()) {
            Setup base = first[Setup.NONE.ordinal()] != null ? Setup.NONE
                    : s.isAttached() ? s.control() : null;
            if (s != Setup.NONE && base != null && first[s.ordinal()] != null && first[base.ordinal()] != null) {
                return String.format(Locale.ROOT, ", %s / %s median %.4f", s.label, base.label,
                        Quantiles.of(CycleRatios.perCycle(measured, s, base, Slice.Rate.WALL)).median());
            }
        }
        return "";
    }

    /** @param preloaded classes every child loaded at start ({@link AgentClassLoads}; 0: none) */
    private static String header(OverheadOptions o, String args, String stamp, String loadBefore, Path runDir,
            Duration took, int rounds, int preloaded) {
        List<String> labels = new ArrayList<>();
        for (Setup s : o.setups()) {
            labels.add(s.label);
        }
        return String.format(Locale.ROOT, String.join("\n",
                "# Collector agent overhead (%s UTC)",
                "",
                "Command: `java -cp 'bench/target/classes:bench/target/lib/*' %s %s`",
                "",
                "- machine: %d cores, %s %s, %s; **shared** (other builds and tests may run): load average"
                        + " %s at the start, %s at the end",
                "- %d round(s), each with a fresh child JVM per setup (%s): %d workload threads,"
                        + " `-Xms%s -Xmx%s -XX:+UseG1GC`; all frozen (SIGSTOP) but one at a time, which runs"
                        + " for a %d ms slice; per cycle every child one slice, in a shuffled order;%s"
                        + " %d warm-up cycles (discarded), then %d measured cycles; quiet cycle: the rest of the machine"
                        + " used < %.0f %% of the cores in each of its slices; whole run %d s",
                "- agent: `%s`, `period` 20 ms or 10 ms, `flush=%s`, `stackdepth=%d`;"
                        + " plain JFR: `-XX:StartFlightRecording` with jdk.ExecutionSample alone at 20 ms"
                        + " (maxage 2m, maxsize 32m, as the agent's stream); every JFR child also gets"
                        + " `-XX:FlightRecorderOptions:stackdepth=%d`",
                "- children's output and every slice (`slices.csv`): `%s`",
                "%s%s%s"),
                stamp, AgentOverheadBenchmark.class.getName(), args,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
                System.getProperty("java.runtime.version"), System.getProperty("os.name") + " " + System.getProperty("os.arch"),
                loadBefore, loadAverage(),
                rounds, String.join(", ", labels), o.threads(), o.heap(), o.heap(), o.slice().toMillis(),
                o.prewarm().isZero() ? "" : " before the first cycle all children ran together, unsliced, for "
                        + o.prewarm().toSeconds() + " s;",
                o.warmupCycles(), o.measuredCycles(), o.quiet() * 100, took.toSeconds(),
                o.agentJar().getFileName(), OverheadOptions.agentDuration(o.flush()), o.stackDepth(), o.stackDepth(),
                runDir, awayLine(o), tenureLine(o), preloadLine(o, preloaded));
    }

    private static String awayLine(OverheadOptions o) {
        return o.setups().contains(Setup.AGENT_20_AWAY)
                ? "- " + Setup.AGENT_20_AWAY.label + ": the agent as at 20 ms, but `bootstrap.servers="
                        + Setup.UNREACHABLE_BROKER + "` (nothing listens there: every connection is refused, as by"
                        + " a stopped broker) and `buffer=" + Setup.AWAY_BUFFER + "`, so its batches wait in the send"
                        + " queue and, once it is full, the oldest are dropped; it publishes nothing\n"
                : "";
    }

    private static String tenureLine(OverheadOptions o) {
        return o.tenure()
                ? "- every child built its workers' state and moved it to the old generation (`System.gc()` twice)"
                        + " before they started, so no young collection moves it while it is measured\n"
                : "- `--tenure no`: the workers' state stays in the young generation, where collections (such as those"
                        + " the agent's allocations cause) move it, and with it the workload's speed (see bench/README.md)\n";
    }

    private static String preloadLine(OverheadOptions o, int preloaded) {
        if (!attaches(o)) {
            return preloaded == 0 ? "" : "- " + Setup.JFR_20_PRELOADED.label + ": each child loaded and linked at start,"
                    + " before its workload ran, the " + preloaded + " classes our agent's attach loaded in a calibration"
                    + " child (`" + AgentClassLoads.FILE + "`), and ran none of their code\n";
        }
        return (o.attachPlacebo() ? "- **A/A control** (`--attach placebo`): the child labelled \"agent 20 ms attached\""
                + " got the placebo agent, not ours, like the other child: every ratio of the attach rounds below is"
                + " what this design measures for an agent that costs nothing\n" : "")
                + (preloaded > 0
                ? "- attach rounds: every child loaded at start, before its workload ran, the " + preloaded
                        + " classes our agent's attach loaded in a calibration child (`" + AgentClassLoads.FILE
                        + "`), as `-javaagent` loads them before the host's code is compiled: the attach recompiles"
                        + " nothing of the workload for them, and the ratio is what the running agent costs\n"
                : "- attach rounds: `--preload no`: the attach loads our agent's classes into a JVM whose workload"
                        + " is compiled, which may recompile its hot code once (see bench/README.md)\n");
    }

    static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).split(" ");
            return parts[0] + " / " + parts[1] + " / " + parts[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

}
