package io.cctflow.bench.overhead;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;

import io.cctflow.core.Durations;

/**
 * Options of {@link AgentOverheadBenchmark}, parsed from {@code --key value} pairs. Immutable.
 *
 * @param rounds      rounds, each with fresh child JVMs of every setup
 * @param setups      the setups run in every round, in {@link Setup} order; holds {@link Setup#NONE}, or
 *                    one {@linkplain Setup#isAttached attached} setup with its {@linkplain Setup#control control}
 * @param slice       how long one child runs thawed in one slice
 * @param warmup      per child and round, thawed time in slices before the measured cycles (discarded)
 * @param prewarm     per round, how long all children run together, unsliced, before the first cycle
 *                    (zero: not at all)
 * @param preload     with an attached setup: both children load the classes our agent's
 *                    attach loads ({@link AgentClassLoads}) before their workload starts
 * @param tenure      every child builds its workers' state (arrays, digest) before they start and moves
 *                    it to the old generation ({@code System.gc()} twice), so young collections (such as
 *                    those the agent's allocations cause) do not move it while it is measured
 * @param attachPlacebo with an attached setup: an A/A control, the placebo agent, not
 *                    ours, is attached to that child too, so the ratios show the design's own noise
 * @param measure     per child and round, thawed time in measured slices
 * @param threads     worker threads of the workload
 * @param flush       the agent's flush interval ({@code flush=})
 * @param maxTime     bound on the whole run: no round starts that would likely end after it
 * @param heap        {@code -Xms} and {@code -Xmx} of the children
 * @param stackDepth  JFR stack depth, for the agent and the plain JFR recording alike
 * @param seed        seed of the slice order within each cycle
 * @param quiet       a cycle is quiet when the rest of the machine used less than this share of its
 *                    cores in every slice of it
 * @param agentJar    the shaded agent jar
 * @param workDir     broker data, the .jfc files and every child's output
 * @param reportDir   where the Markdown report is written
 */
record OverheadOptions(int rounds, List<Setup> setups, Duration slice, Duration warmup, Duration prewarm,
        boolean preload, boolean tenure, boolean attachPlacebo, Duration measure,
        int threads, Duration flush, Duration maxTime, String heap, int stackDepth, long seed, double quiet, Path agentJar,
        Path workDir, Path reportDir) {

    static final String USAGE = String.join("\n",
            "usage: java -cp 'bench/target/classes:bench/target/lib/*' io.cctflow.bench.overhead.AgentOverheadBenchmark [options]",
            "  --rounds N         rounds, each with fresh child JVMs of every setup (default 3)",
            "  --setups LIST      setups run side by side (default none,agent20,agent10,jfr20; also agent20away: the",
            "                     agent at 20 ms with its broker unreachable and a 128k queue; jfr20stream: a JFR",
            "                     stream like the agent's whose events are left unread; jfr20dump: the same sampling",
            "                     read from a recording dumped every 20 s; jfridle, jfrnoevents;",
            "                     jfr20,jfr20attached: the agent attached halfway through each round to a JVM",
            "                     recording plain JFR, the same JVM measured before and after; doubles each round;",
            "                     none,noneattached: the same with JVMs that run no JFR, which the attach starts)",
            "  --slice D          thawed time of one child in one slice (default 1500ms)",
            "  --warmup D         per child and round, thawed time in slices before measuring (default 20s)",
            "  --prewarm D        per round, all children run together, unsliced, for D before the first cycle,",
            "                     so their JIT settles cheaply (default 0: not at all)",
            "  --preload yes|no   with an attached setup: both children load, before their workload starts, the classes",
            "                     our agent's attach loads (found by a calibration child), so the attach does not",
            "                     recompile the workload's hot code, as -javaagent would not (default yes)",
            "  --tenure yes|no    every child moves its workers' state to the old generation before they start, so",
            "                     young collections (the agent's allocations cause them) do not move it (default yes)",
            "  --attach ours|placebo  with an attached setup: what is attached to that child (default ours); placebo:",
            "                     an A/A control, an agent that does nothing, whose ratios show the design's own noise",
            "  --measure D        per child and round, thawed time in measured slices (default 30s)",
            "  --threads N        workload threads (default 2)",
            "  --flush D          the agent's flush interval (default 5s)",
            "  --max-time D       bound on the whole run; later rounds are skipped (default 14m)",
            "  --heap SIZE        -Xms and -Xmx of the children (default 256m)",
            "  --stackdepth N     JFR stack depth of agent and plain JFR (default 256)",
            "  --seed N           seed of the slice order in each cycle (default 1)",
            "  --quiet SHARE      quiet cycle: the rest of the machine used less than this share of the cores (default 0.05)",
            "  --agent-jar PATH   shaded agent jar (default bench/target/cctflow-agent.jar)",
            "  --work-dir PATH    broker data and child output (default bench/target/overhead)",
            "  --report-dir PATH  Markdown report directory (default bench/reports)",
            "durations: 500ms, 6s, 10m");

    static OverheadOptions parse(String... args) {
        int rounds = 3;
        List<Setup> setups = List.of(Setup.NONE, Setup.AGENT_20, Setup.AGENT_10, Setup.JFR_20);
        Duration slice = Duration.ofMillis(1500);
        Duration warmup = Duration.ofSeconds(20);
        Duration prewarm = Duration.ZERO;
        boolean preload = true;
        boolean tenure = true;
        boolean attachPlacebo = false;
        Duration measure = Duration.ofSeconds(30);
        int threads = 2;
        Duration flush = Duration.ofSeconds(5);
        Duration maxTime = Duration.ofMinutes(14);
        String heap = "256m";
        int stackDepth = 256;
        long seed = 1;
        double quiet = 0.05;
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
                case "--setups" -> setups = setups(key, value);
                case "--slice" -> slice = duration(key, value);
                case "--warmup" -> warmup = duration(key, value);
                case "--prewarm" -> prewarm = value.strip().equals("0") ? Duration.ZERO : duration(key, value);
                case "--preload" -> preload = either(key, value, "yes", "no");
                case "--tenure" -> tenure = either(key, value, "yes", "no");
                case "--attach" -> attachPlacebo = !either(key, value, "ours", "placebo");
                case "--measure" -> measure = duration(key, value);
                case "--threads" -> threads = positive(key, value);
                case "--flush" -> flush = duration(key, value);
                case "--max-time" -> maxTime = duration(key, value);
                case "--heap" -> heap = value;
                case "--stackdepth" -> stackDepth = positive(key, value);
                case "--seed" -> seed = number(key, value);
                case "--quiet" -> quiet = share(key, value);
                case "--agent-jar" -> agentJar = Path.of(value);
                case "--work-dir" -> workDir = Path.of(value);
                case "--report-dir" -> reportDir = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + key);
            }
        }
        if (attachPlacebo && setups.stream().noneMatch(Setup::isAttached)) {
            throw new IllegalArgumentException("option --attach placebo needs --setups " + Setup.JFR_20.id() + ","
                    + Setup.JFR_20_ATTACHED.id() + " or " + Setup.NONE.id() + "," + Setup.NONE_ATTACHED.id()
                    + " (it changes what that child gets attached)");
        }
        return new OverheadOptions(rounds, setups, slice, warmup, prewarm, preload, tenure, attachPlacebo, measure, threads,
                flush, maxTime, heap, stackDepth, seed, quiet, agentJar, workDir, reportDir);
    }

    /** The setup that gets our agent attached halfway through each round, if any. */
    Optional<Setup> attached() {
        return setups.stream().filter(Setup::isAttached).findFirst();
    }

    /** Measured cycles per round: enough slices for {@link #measure} of thawed time per child. */
    int measuredCycles() {
        return cycles(measure);
    }

    /** Warm-up cycles per round. */
    int warmupCycles() {
        return cycles(warmup);
    }

    private int cycles(Duration thawed) {
        return (int) Math.max(1, (thawed.toNanos() + slice.toNanos() - 1) / slice.toNanos());
    }

    private static List<Setup> setups(String key, String value) {
        EnumSet<Setup> chosen = EnumSet.noneOf(Setup.class);
        for (String id : value.split(",")) {
            try {
                chosen.add(Setup.ofId(id.strip()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("option " + key + ": " + e.getMessage(), e);
            }
        }
        List<Setup> attached = chosen.stream().filter(Setup::isAttached).toList();
        if (attached.size() > 1) {
            throw new IllegalArgumentException("option " + key + ": at most one of " + Setup.JFR_20_ATTACHED.id()
                    + " and " + Setup.NONE_ATTACHED.id() + " per run, was '" + value + "'");
        }
        for (Setup s : attached) {
            if (!chosen.contains(s.control())) {
                throw new IllegalArgumentException("option " + key + ": " + s.id() + " needs " + s.control().id()
                        + " too (the JVM without the agent it is compared with), was '" + value + "'");
            }
        }
        if (attached.isEmpty() && (!chosen.contains(Setup.NONE) || chosen.size() < 2)) {
            throw new IllegalArgumentException("option " + key + " must list none and at least one other setup"
                    + " (ratios are taken against none), or " + Setup.JFR_20.id() + " and "
                    + Setup.JFR_20_ATTACHED.id() + ", or " + Setup.NONE.id() + " and " + Setup.NONE_ATTACHED.id()
                    + ", was '" + value + "'");
        }
        return List.copyOf(new ArrayList<>(chosen));
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

    /** {@code true} for {@code whenTrue}, {@code false} for {@code whenFalse}; else an error naming both. */
    private static boolean either(String key, String value, String whenTrue, String whenFalse) {
        if (value.strip().equals(whenTrue) || value.strip().equals(whenFalse)) {
            return value.strip().equals(whenTrue);
        }
        throw new IllegalArgumentException("option " + key + " must be " + whenTrue + " or " + whenFalse + ", was '"
                + value + "'");
    }

    private static double share(String key, String value) {
        try {
            double d = Double.parseDouble(value);
            if (d > 0 && d <= 1) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("option " + key + " must be a share in (0, 1] such as 0.05, was '"
                + value + "'");
    }

    private static long number(String key, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("option " + key + " must be an integer, was '" + value + "'", e);
        }
    }

    /** A positive duration in {@link Durations}' syntax, e.g. {@code 500ms}, {@code 6s} or {@code 10m}. */
    static Duration duration(String key, String value) {
        Duration d;
        try {
            d = Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("option " + key + " must be a duration such as 500ms, 6s or 10m, was '"
                    + value + "'", e);
        }
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
