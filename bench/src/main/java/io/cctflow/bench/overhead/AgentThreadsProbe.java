package io.cctflow.bench.overhead;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;

import io.cctflow.servers.KafkaServer;

/**
 * What each thread of a host does, per setup of the overhead benchmark ({@link Setup}), in a JVM
 * that runs freely rather than in slices: CPU per second and the times per second it was put on a
 * CPU (wake-ups, and returns after being preempted), by native thread name. One child at a time,
 * so the setups do not compete; per round and setup: the child starts, runs {@code --warmup}
 * (not counted), then {@code --measure}, read from {@code /proc/<pid>/task/*}{@code /schedstat}
 * while it is frozen before and after. Takes the overhead benchmark's options (others, such as
 * {@code --slice}, are ignored); use {@code --flush 10s} for the agent's default. A broker runs
 * as in the benchmark, so {@code agent20} publishes and {@code agent20away} finds nothing listening.
 *
 * <p>This is the figure for "how often does the agent wake the host's CPUs", which the sliced
 * benchmark cannot give: thawing a child after seconds frozen fires every timer that fell due
 * meanwhile at once. Prints a Markdown report and writes it to {@code --report-dir}.
 */
public final class AgentThreadsProbe {
    /** What the threads of one name did in one round's measured time, per second. */
    private record Row(int round, int threads, double cpuMillis, double runs) {
    }

    private AgentThreadsProbe() {
    }

    public static void main(String[] args) throws Exception {
        OverheadOptions options = AgentOverheadBenchmark.optionsOrExit(args);
        String stamp = AgentOverheadBenchmark.stampNow();
        Path runDir = AgentOverheadBenchmark.newRunDir(options, "threads-" + stamp);
        String loadBefore = AgentOverheadBenchmark.loadAverage();
        // per setup, per thread name: one row of per-round figures
        Map<Setup, Map<String, List<Row>>> bySetup = new LinkedHashMap<>();
        try (KafkaServer kafka = AgentOverheadBenchmark.startBroker(runDir.resolve("kafka"));
                ProcessFreezer freezer = new ProcessFreezer()) {
            AgentOverheadBenchmark.createTopics(kafka, options.setups());
            for (int round = 1; round <= options.rounds(); round++) {
                for (Setup s : options.setups()) {
                    bySetup.computeIfAbsent(s, k -> new LinkedHashMap<>());
                    measure(options, s, round, kafka.bootstrapServers(), runDir, freezer, bySetup.get(s));
                }
            }
        }
        String markdown = report(options, String.join(" ", args), stamp, loadBefore, runDir, bySetup);
        System.out.println(markdown);
        Files.createDirectories(options.reportDir());
        Path file = options.reportDir().resolve("agent-threads-" + stamp + ".md");
        Files.writeString(file, markdown, StandardCharsets.UTF_8);
        System.err.println("report written to " + file.toAbsolutePath());
    }

    /** One child of {@code setup}: its threads' CPU ms and runs per second over {@code --measure}. */
    private static void measure(OverheadOptions options, Setup setup, int round, String bootstrap, Path runDir,
            ProcessFreezer freezer, Map<String, List<Row>> rows) throws Exception {
        Child child = Child.start(setup, round, setup.jvmOptions(options.agentJar(), bootstrap, runDir,
                options.flush(), options.stackDepth(), round), options, runDir, freezer, Optional.empty());
        try {
            System.err.printf(Locale.ROOT, "round %d: %s started, running %d s before measuring%n", round,
                    setup.label, options.warmup().toSeconds());
            child.measure(freezer, options.warmup());
            ThreadCpu before = ThreadCpu.of(child.pid());
            Slice slice = child.measure(freezer, options.measure());
            List<ThreadCpu.Use> uses = ThreadCpu.of(child.pid()).byName(before);
            double seconds = slice.wallNanos() / 1e9;
            for (ThreadCpu.Use u : uses) {
                rows.computeIfAbsent(u.name(), k -> new ArrayList<>())
                        .add(new Row(round, u.threads(), u.cpuNanos() / 1e6 / seconds, u.runs() / seconds));
            }
            System.err.printf(Locale.ROOT, "round %d: %s measured %.1f s: %s%n", round, setup.label, seconds,
                    ThreadCpu.format(slice.cpuByKind()));
            child.end(freezer);
        } finally {
            child.kill();
        }
    }

    private static String report(OverheadOptions o, String args, String stamp, String loadBefore, Path runDir,
            Map<Setup, Map<String, List<Row>>> bySetup) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, String.join("\n",
                "# Threads of a host, free running (%s UTC)",
                "",
                "Command: `java -cp 'bench/target/classes:bench/target/lib/*' %s %s`",
                "",
                "- machine: %d cores, %s %s; load average %s at the start, %s at the end",
                "- per round and setup one child JVM at a time, %d workload threads, `-Xms%s -Xmx%s -XX:+UseG1GC`:"
                        + " %d s not counted, then %d s measured; agent `flush=%s`, `stackdepth=%d`",
                "- per native thread name (15 characters; threads of one name summed): CPU milliseconds per"
                        + " second and runs per second (times put on a CPU: wake-ups, and returns after being"
                        + " preempted), one figure per round; threads under 0.05 ms/s and 0.5 runs/s in every"
                        + " round left out",
                "- children's output: `%s`",
                ""),
                stamp, AgentThreadsProbe.class.getName(), args, Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name"), System.getProperty("java.runtime.version"), loadBefore,
                AgentOverheadBenchmark.loadAverage(), o.threads(), o.heap(), o.heap(), o.warmup().toSeconds(),
                o.measure().toSeconds(), OverheadOptions.agentDuration(o.flush()), o.stackDepth(), runDir));
        for (Map.Entry<Setup, Map<String, List<Row>>> setup : bySetup.entrySet()) {
            md.append("\n## ").append(setup.getKey().label).append("\n\n")
                    .append("| thread | kind | threads | CPU ms / s | runs / s |\n|---|---|---:|---:|---:|\n");
            double[] agentCpu = new double[o.rounds()];
            double[] agentRuns = new double[o.rounds()];
            for (Map.Entry<String, List<Row>> row : setup.getValue().entrySet()) {
                ThreadCpu.Kind kind = ThreadCpu.kindOf(row.getKey());
                boolean shown = false;
                StringJoiner threads = new StringJoiner(", ");
                StringJoiner cpu = new StringJoiner(", ");
                StringJoiner runs = new StringJoiner(", ");
                Row[] byRound = new Row[o.rounds()];
                for (Row r : row.getValue()) {
                    byRound[r.round() - 1] = r;
                }
                for (Row r : byRound) {
                    if (r == null) {
                        // no thread of this name in that round's child
                        threads.add("-");
                        cpu.add("-");
                        runs.add("-");
                        continue;
                    }
                    shown |= r.cpuMillis() >= 0.05 || r.runs() >= 0.5;
                    threads.add(Integer.toString(r.threads()));
                    cpu.add(String.format(Locale.ROOT, "%.2f", r.cpuMillis()));
                    runs.add(String.format(Locale.ROOT, "%.1f", r.runs()));
                    if (kind == ThreadCpu.Kind.AGENT) {
                        agentCpu[r.round() - 1] += r.cpuMillis();
                        agentRuns[r.round() - 1] += r.runs();
                    }
                }
                if (shown) {
                    md.append("| ").append(row.getKey()).append(" | ").append(kind.name().toLowerCase(Locale.ROOT))
                            .append(" | ").append(threads).append(" | ").append(cpu).append(" | ").append(runs)
                            .append(" |\n");
                }
            }
            if (setup.getKey().isAgent()) {
                StringJoiner cpu = new StringJoiner(", ");
                StringJoiner runs = new StringJoiner(", ");
                for (int r = 0; r < o.rounds(); r++) {
                    cpu.add(String.format(Locale.ROOT, "%.2f", agentCpu[r]));
                    runs.add(String.format(Locale.ROOT, "%.1f", agentRuns[r]));
                }
                md.append("| **agent's threads** (`cctflow-*`, `kafka-*`) | agent | | ").append(cpu).append(" | ")
                        .append(runs).append(" |\n");
            }
        }
        return md.toString();
    }
}
