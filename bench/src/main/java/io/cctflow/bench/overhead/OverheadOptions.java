package io.cctflow.bench.overhead;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * Options of {@link AgentOverheadBenchmark}, parsed from {@code --key value} pairs. Immutable.
 *
 * @param rounds      rounds of the four configurations, each round one child JVM per configuration
 * @param warmup      time each child runs before it starts counting
 * @param measure     the measured interval of each child
 * @param threads     worker threads of the workload
 * @param flush       the agent's flush interval ({@code flush=}); shorter than {@code measure}, so
 *                    every measured interval holds at least one flush
 * @param maxTime     bound on the whole run: no round starts that would likely end after it
 * @param heap        {@code -Xms} and {@code -Xmx} of the children
 * @param stackDepth  JFR stack depth, for the agent and the plain JFR recording alike
 * @param agentJar    the shaded agent jar
 * @param workDir     broker data, the .jfc file and every child's output
 * @param reportDir   where the Markdown report is written
 */
record OverheadOptions(int rounds, Duration warmup, Duration measure, int threads, Duration flush,
        Duration maxTime, String heap, int stackDepth, Path agentJar, Path workDir, Path reportDir) {

    static final String USAGE = String.join("\n",
            "usage: java -cp 'bench/target/classes:bench/target/lib/*' io.cctflow.bench.overhead.AgentOverheadBenchmark [options]",
            "  --rounds N         rounds of none / agent 20 ms / agent 10 ms / plain JFR 20 ms (default 12)",
            "  --warmup D         per child, before counting, after JFR runs (default 5s)",
            "  --measure D        per child, the measured interval (default 6s)",
            "  --threads N        workload threads (default 2)",
            "  --flush D          the agent's flush interval (default 5s)",
            "  --max-time D       bound on the whole run; later rounds are skipped (default 10m)",
            "  --heap SIZE        -Xms and -Xmx of the children (default 256m)",
            "  --stackdepth N     JFR stack depth of agent and plain JFR (default 256)",
            "  --agent-jar PATH   shaded agent jar (default bench/target/cctflow-agent.jar)",
            "  --work-dir PATH    broker data and child output (default bench/target/overhead)",
            "  --report-dir PATH  Markdown report directory (default bench/reports)",
            "durations: 500ms, 6s, 10m");

    static OverheadOptions parse(String... args) {
        int rounds = 12;
        Duration warmup = Duration.ofSeconds(5);
        Duration measure = Duration.ofSeconds(6);
        int threads = 2;
        Duration flush = Duration.ofSeconds(5);
        Duration maxTime = Duration.ofMinutes(10);
        String heap = "256m";
        int stackDepth = 256;
        Path agentJar = Path.of("bench/target/cctflow-agent.jar");
        Path workDir = Path.of("bench/target/overhead");
        Path reportDir = Path.of("bench/reports");
        for (int i = 0; i < args.length; i++) {
            String key = args[i];
            if (key.equals("--help") || key.equals("-h")) {
                throw new IllegalArgumentException("help");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + key + " needs a value");
            }
            String value = args[++i];
            switch (key) {
                case "--rounds" -> rounds = positive(key, value);
                case "--warmup" -> warmup = duration(key, value);
                case "--measure" -> measure = duration(key, value);
                case "--threads" -> threads = positive(key, value);
                case "--flush" -> flush = duration(key, value);
                case "--max-time" -> maxTime = duration(key, value);
                case "--heap" -> heap = value;
                case "--stackdepth" -> stackDepth = positive(key, value);
                case "--agent-jar" -> agentJar = Path.of(value);
                case "--work-dir" -> workDir = Path.of(value);
                case "--report-dir" -> reportDir = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + key);
            }
        }
        return new OverheadOptions(rounds, warmup, measure, threads, flush, maxTime, heap, stackDepth,
                agentJar, workDir, reportDir);
    }

    private static int positive(String key, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("option " + key + " must be a positive integer, was '" + value + "'");
    }

    static Duration duration(String key, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (v.endsWith("ms")) {
                return checkPositive(key, value, Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2))));
            }
            if (v.endsWith("s")) {
                return checkPositive(key, value, Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1))));
            }
            if (v.endsWith("m")) {
                return checkPositive(key, value, Duration.ofMinutes(Long.parseLong(v.substring(0, v.length() - 1))));
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("option " + key + " must be a duration such as 500ms, 6s or 10m, was '"
                + value + "'");
    }

    private static Duration checkPositive(String key, String value, Duration d) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException("option " + key + " must be positive, was '" + value + "'");
        }
        return d;
    }

    /** The agent's duration syntax: milliseconds with the unit. */
    static String agentDuration(Duration d) {
        return d.toMillis() + "ms";
    }
}
