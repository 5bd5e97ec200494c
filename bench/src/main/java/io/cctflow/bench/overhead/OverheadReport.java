package io.cctflow.bench.overhead;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Turns the rounds into the Markdown report: the goal ratios with their intervals, every ratio
 * against no agent, CPU by thread kind, heap, bytes per sample. Not thread-safe.
 */
final class OverheadReport {
    private static final double MIB = 1024.0 * 1024.0;
    /** Confidence level of the median intervals. */
    static final double LEVEL = 0.95;

    /** A ratio of two setups' rates, with the goal it must meet (NaN: none). */
    record Pair(Setup a, Setup b, double goal) {
        String label() {
            return a.label + " / " + b.label;
        }
    }

    /** The goal for our agent at 20 ms against no agent: at most 1 % loss. */
    static final double GOAL_AGAINST_NONE = 0.99;
    /** The goal for our agent at 20 ms against plain JFR at 20 ms: at most 0.5 % loss. */
    static final double GOAL_AGAINST_JFR = 0.995;
    /** Fewest quiet cycles for a wall-clock verdict. */
    static final int MIN_QUIET_CYCLES = 8;
    /** Fewest chosen cycles (after the attach, in the attach rounds) for a round's median to be judged. */
    static final int MIN_ROUND_CYCLES = 3;
    /** Fewest judged rounds (each a fresh set of JVMs) for a verdict on a goal ({@link #roundsVerdict}). */
    static final int MIN_JUDGED_ROUNDS = 5;
    /**
     * Fewest quiet cycles before the attach for a round to be judged: two halves of 3, so that
     * {@link #MAX_BEFORE_DRIFT} can be checked.
     */
    static final int MIN_BEFORE_CYCLES = 6;
    /**
     * Largest drift of a round's before phase ({@link CycleRatios#drift}, either sign) for the round
     * to be judged. Set on 2026-11-25 from the before phases alone of the runs until then, before the
     * run it first judged: the A/A control's six rounds drifted by at most 1.8 %, 14 of the 16 tenured
     * rounds with our agent by at most 1.3 %; with 8 cycles per half and a cycle IQR of about 2 %,
     * two halves of a steady phase differ by about 0.8 % (one standard error), so 2 % screens a
     * steady pair of JVMs rarely. It never looks at the after phase, so it favours no result.
     */
    static final double MAX_BEFORE_DRIFT = 0.02;

    private final int threads;
    private final List<Setup> setups;
    private final double quietShare;
    private final int cores;
    private final List<Round> rounds = new ArrayList<>();
    private final Map<Setup, WireStats> wire = new EnumMap<>(Setup.class);
    private final Map<Setup, Double> thawedSeconds = new EnumMap<>(Setup.class);

    /**
     * @param threads    the workload's threads, for the per-thread sample rate
     * @param quietShare see {@link CycleRatios#quiet}
     * @param cores      the machine's cores
     */
    OverheadReport(int threads, List<Setup> setups, double quietShare, int cores) {
        this.threads = threads;
        this.setups = List.copyOf(setups);
        this.quietShare = quietShare;
        this.cores = cores;
    }

    void addRound(Round round) {
        rounds.add(round);
    }

    /** Thawed seconds of one child of {@code setup} in a round (warm-up and measured slices), for rates of samples. */
    void addThawed(Setup setup, double seconds) {
        thawedSeconds.merge(setup, seconds, Double::sum);
    }

    void addWire(Setup setup, WireStats stats) {
        wire.put(setup, stats);
    }

    int rounds() {
        return rounds.size();
    }

    /** The ratios reported: the goals first, then every setup against none, then 10 ms against 20 ms. */
    List<Pair> pairs() {
        List<Pair> pairs = new ArrayList<>();
        if (setups.contains(Setup.AGENT_20)) {
            pairs.add(new Pair(Setup.AGENT_20, Setup.NONE, GOAL_AGAINST_NONE));
            if (setups.contains(Setup.JFR_20)) {
                pairs.add(new Pair(Setup.AGENT_20, Setup.JFR_20, GOAL_AGAINST_JFR));
            }
        }
        for (Setup s : setups) {
            if (s != Setup.NONE && s != Setup.AGENT_20 && setups.contains(Setup.NONE)) {
                pairs.add(new Pair(s, Setup.NONE, Double.NaN));
            }
        }
        if (setups.contains(Setup.JFR_20_ATTACHED)) {
            // across JVMs, after the attach; the goal is judged within the JVM (attached(...))
            pairs.add(new Pair(Setup.JFR_20_ATTACHED, Setup.JFR_20, Double.NaN));
        }
        if (setups.contains(Setup.AGENT_20)) {
            for (Setup s : List.of(Setup.AGENT_10, Setup.AGENT_20_AWAY)) {
                if (setups.contains(s)) {
                    pairs.add(new Pair(s, Setup.AGENT_20, Double.NaN));
                }
            }
        }
        if (setups.contains(Setup.AGENT_20) && setups.contains(Setup.JFR_20_STREAM)) {
            // our agent's own work: the same stream, its events read, batched and sent
            pairs.add(new Pair(Setup.AGENT_20, Setup.JFR_20_STREAM, Double.NaN));
        }
        if (setups.contains(Setup.JFR_20_PRELOADED)) {
            // the agent's classes without the agent; then the running agent without its classes' effect
            if (setups.contains(Setup.JFR_20)) {
                pairs.add(new Pair(Setup.JFR_20_PRELOADED, Setup.JFR_20, Double.NaN));
            }
            if (setups.contains(Setup.AGENT_20)) {
                pairs.add(new Pair(Setup.AGENT_20, Setup.JFR_20_PRELOADED, Double.NaN));
            }
        }
        if (setups.contains(Setup.JFR_20)) {
            for (Setup s : List.of(Setup.JFR_20_STREAM, Setup.JFR_20_DUMP, Setup.JFR_IDLE, Setup.JFR_NO_EVENTS)) {
                if (setups.contains(s)) {
                    pairs.add(new Pair(Setup.JFR_20, s, Double.NaN));
                }
            }
        }
        if (setups.contains(Setup.JFR_20_STREAM) && setups.contains(Setup.JFR_20_DUMP)) {
            // the same sampling, read once a second by a stream or once per interval from dumps
            pairs.add(new Pair(Setup.JFR_20_STREAM, Setup.JFR_20_DUMP, Double.NaN));
        }
        return pairs;
    }

    /** The cycles of one round a table is about. */
    private interface CycleChoice {
        List<Slice[]> of(Round r);
    }

    private List<Slice[]> quietCycles(Round r) {
        return CycleRatios.quiet(r.cycles(), quietShare, cores);
    }

    /** The chosen cycles of every round. */
    private List<Slice[]> cycles(CycleChoice choice) {
        List<Slice[]> all = new ArrayList<>();
        for (Round r : rounds) {
            all.addAll(choice.of(r));
        }
        return all;
    }

    /**
     * The medians of {@code pair}'s per-cycle ratios of each round with at least
     * {@value #MIN_ROUND_CYCLES} chosen cycles:
     * what {@link #roundsVerdict} judges (each round is a fresh set of JVMs, the independent unit).
     */
    private List<Double> judgedRoundMedians(Pair pair, Slice.Rate rate, CycleChoice choice) {
        List<Double> medians = new ArrayList<>();
        for (Round r : rounds) {
            List<Slice[]> own = choice.of(r);
            if (own.size() >= MIN_ROUND_CYCLES) {
                medians.add(Quantiles.of(CycleRatios.perCycle(own, pair.a(), pair.b(), rate)).median());
            }
        }
        return medians;
    }

    /** The report; {@code header} comes first (command, machine, options). */
    String toMarkdown(String header) {
        StringBuilder md = new StringBuilder(header);
        if (rounds.isEmpty()) {
            return md.append("\nNo round completed.\n").toString();
        }
        ratios(md, Slice.Rate.WALL, this::quietCycles, "quiet cycles");
        ratios(md, Slice.Rate.WALL, Round::cycles, "all cycles");
        ratios(md, Slice.Rate.CPU, Round::cycles, "all cycles");
        ratios(md, Slice.Rate.WORKER_CPU, Round::cycles, "all cycles");
        for (Setup s : setups) {
            if (s.isAttached()) {
                attached(md, s);
            }
        }
        rates(md);
        cpu(md);
        heap(md);
        wire(md);
        perRound(md);
        return md.toString();
    }

    private void ratios(StringBuilder md, Slice.Rate rate, CycleChoice choice, String which) {
        List<Slice[]> chosen = cycles(choice);
        md.append("\n## Ratios of ").append(rate.label).append(", ").append(which)
                .append(" (1.000 = no cost; 0.990 = 1 % loss)\n\n");
        if (rate == Slice.Rate.WALL && which.startsWith("quiet")) {
            md.append(String.format(Locale.ROOT, "Quiet cycles: in every slice of the cycle the rest of the machine"
                    + " (all but the benchmark's own processes) used less than %.0f %% of its %d cores; %d of %d"
                    + " measured cycles. On a contended machine the scheduler does not give every setup the same"
                    + " share of the cores (see the CPU table), so the wall-clock goals are judged on quiet cycles."
                    + " ", quietShare * 100, cores, chosen.size(), cycles(Round::cycles).size()));
            md.append("Per cycle, each setup's rate over its slice, divided; then the median of those ratios over"
                    + " the cycles of all rounds, with its ").append(pct(LEVEL)).append(" interval (order"
                    + " statistics, distribution-free) and quartiles; each round's own median (fresh JVMs per round:"
                    + " their spread is the JVM-to-JVM effect, e.g. code layout); and each round's ratio of sums"
                    + " (all operations over all thawed time of those cycles, which charges rare costly slices in"
                    + " full). The verdict is taken over rounds, the independent unit (the cycles of a round share"
                    + " its JVMs): **shown** = at least ").append(MIN_QUIET_CYCLES).append(" cycles, at least ")
                    .append(MIN_JUDGED_ROUNDS).append(" rounds with at least ")
                    .append(MIN_ROUND_CYCLES).append(" of them, and the lower end of the 95 %"
                    + " confidence interval of the mean of those rounds' medians (Student's t) reaches the goal.\n\n");
        }
        if (chosen.isEmpty()) {
            md.append("No such cycle.\n");
            return;
        }
        md.append("| ratio | cycles | median | ").append(pct(LEVEL)).append(" interval | IQR | per-round medians"
                + " | per-round ratio of sums | goal |\n|---|---:|---:|---:|---:|---|---|---|\n");
        for (Pair p : pairs()) {
            List<Double> values = CycleRatios.perCycle(chosen, p.a(), p.b(), rate);
            Quantiles q = Quantiles.of(values);
            double[] ci = Quantiles.medianInterval(values, LEVEL);
            List<String> medians = new ArrayList<>();
            List<String> sums = new ArrayList<>();
            for (Round r : rounds) {
                List<Slice[]> own = choice.of(r);
                medians.add(own.isEmpty() ? "–" : String.format(Locale.ROOT, "%.4f",
                        Quantiles.of(CycleRatios.perCycle(own, p.a(), p.b(), rate)).median()));
                sums.add(own.isEmpty() ? "–"
                        : String.format(Locale.ROOT, "%.4f", CycleRatios.ofSums(own, p.a(), p.b(), rate)));
            }
            String goal = "";
            if (!Double.isNaN(p.goal())) {
                goal = roundsVerdict(judgedRoundMedians(p, rate, choice), chosen.size(), p.goal());
                if (rate != Slice.Rate.WALL || !which.startsWith("quiet")) {
                    // the goals are on wall time in quiet cycles; elsewhere the same test, for information
                    goal = goal.replace("**not shown**", "not reached").replace("**shown**", "reached");
                }
            }
            md.append(String.format(Locale.ROOT, "| %s | %d | %.4f | %.4f .. %.4f | %.4f .. %.4f | %s | %s | %s |%n",
                    p.label(), q.n(), q.median(), ci[0], ci[1], q.q1(), q.q3(), String.join(", ", medians),
                    String.join(", ", sums), goal));
        }
    }

    /**
     * The within-JVM ratios of the attached setup {@code a} ({@link CycleRatios#afterOverBefore}) against
     * its control: per rate, over quiet cycles for wall time and all cycles otherwise, with the verdict
     * on the goal for wall time: agent / plain JFR ({@link Setup#JFR_20_ATTACHED}) or agent / none
     * ({@link Setup#NONE_ATTACHED}).
     */
    private void attached(StringBuilder md, Setup a) {
        Setup b = a.control();
        boolean onJfr = a == Setup.JFR_20_ATTACHED;
        double goal = onJfr ? GOAL_AGAINST_JFR : GOAL_AGAINST_NONE;
        md.append("\n## Agent 20 ms attached to a JVM ").append(onJfr ? "recording plain JFR 20 ms" : "without JFR")
                .append(": the same JVM after / before (1.000 = no cost; 0.990 = 1 % loss)\n\n")
                .append("Each round starts two children ").append(onJfr ? "recording plain JFR 20 ms" : "without JFR")
                .append(" and measures them; then our agent"
                        + " (20 ms) is attached to one of them (Attach API, as users attach it to a running JVM)"
                        + " and, at the same moment, an agent that does nothing to the other (`PlaceboAgent`, so"
                        + " both go through an attach); both are warmed up and measured again. Per cycle after the"
                        + " attach, the attached"
                        + " child's rate over the other's, divided by the median of that ratio before the attach in"
                        + " the same round: machine drift cancels within each cycle, and the JVM-specific speed of"
                        + " both children (code layout, JIT decisions), which moves cross-JVM ratios by a few"
                        + " per cent, cancels between the phases. ")
                .append(onJfr ? "JFR samples at 20 ms in both phases (the agent's stream and the plain recording"
                        + " share the sampler), so the ratio is the agent's own cost on top of plain JFR: its stream"
                        + " parsing, batching, sending, fingerprinting and their JIT and GC."
                        : "Before the attach neither child runs JFR; the agent starts JFR's sampler at 20 ms, so"
                        + " the ratio is the whole cost of the agent against no agent: JFR's sampling, the"
                        + " agent's stream parsing, batching, sending, fingerprinting and their JIT and GC.")
                .append(" The verdict is taken over rounds, the independent unit (the cycles of"
                        + " a round share its two JVMs): **shown** = at least ").append(MIN_QUIET_CYCLES)
                .append(" quiet cycles after the attach, at least ").append(MIN_JUDGED_ROUNDS).append(" judged"
                        + " rounds, and the lower end of the 95 % confidence interval of the mean of those rounds'"
                        + " medians (Student's t) reaches the goal. A round is judged when it has at least ")
                .append(MIN_BEFORE_CYCLES).append(" quiet cycles before the attach and ")
                .append(MIN_ROUND_CYCLES).append(" after, and its before"
                        + " phase is steady: the median ratio of its later half within ")
                .append(String.format(Locale.ROOT, "%.0f %%", MAX_BEFORE_DRIFT * 100)).append(" of its earlier"
                        + " half's (the before phase is the base of every later cycle; the rule never looks at the"
                        + " after phase). The rounds"
                        + " of an agent that costs nothing scatter too (the A/A control, `--attach placebo`): asking"
                        + " every round's median to reach the goal would fail such an agent often.\n\n")
                .append("| rate, cycles | cycles after | median | ").append(pct(LEVEL)).append(" interval | IQR"
                        + " | per round: before → after (after / before) | goal |\n|---|---:|---:|---:|---:|---|---|\n");
        record Row(Slice.Rate rate, boolean quiet) {
        }
        List<Double> acrossRounds = List.of();
        List<Double> judgedRounds = List.of();
        int unsteadyRounds = 0;
        for (Row row : List.of(new Row(Slice.Rate.WALL, true), new Row(Slice.Rate.WALL, false),
                new Row(Slice.Rate.CPU, false), new Row(Slice.Rate.WORKER_CPU, false))) {
            boolean verdictRow = row.rate() == Slice.Rate.WALL && row.quiet();
            List<Double> values = new ArrayList<>();
            List<String> perRound = new ArrayList<>();
            List<Double> roundMedians = new ArrayList<>();
            List<Double> judged = new ArrayList<>();
            int unsteady = 0;
            for (Round r : rounds) {
                List<Slice[]> before = row.quiet() ? CycleRatios.quiet(r.beforeAttach(), quietShare, cores)
                        : r.beforeAttach();
                List<Slice[]> after = row.quiet() ? CycleRatios.quiet(r.cycles(), quietShare, cores) : r.cycles();
                if (before.isEmpty() || after.isEmpty()) {
                    perRound.add("–");
                    continue;
                }
                List<Double> own = CycleRatios.afterOverBefore(before, after, a, b, row.rate());
                values.addAll(own);
                double median = Quantiles.of(own).median();
                roundMedians.add(median);
                String cell = String.format(Locale.ROOT, "%.4f → %.4f (%.4f)",
                        Quantiles.of(CycleRatios.perCycle(before, a, b, row.rate())).median(),
                        Quantiles.of(CycleRatios.perCycle(after, a, b, row.rate())).median(), median);
                if (verdictRow && before.size() >= MIN_BEFORE_CYCLES && after.size() >= MIN_ROUND_CYCLES) {
                    double drift = CycleRatios.drift(before, a, b, row.rate());
                    if (Math.abs(drift) <= MAX_BEFORE_DRIFT) {
                        judged.add(median);
                    } else {
                        unsteady++;
                        cell += String.format(Locale.ROOT, " [before drifted %+.1f %%: not judged]", drift * 100);
                    }
                }
                perRound.add(cell);
            }
            String label = row.rate().label + ", " + (row.quiet() ? "quiet cycles" : "all cycles");
            if (values.isEmpty()) {
                md.append("| ").append(label).append(" | 0 | | | | | |\n");
                continue;
            }
            Quantiles q = Quantiles.of(values);
            double[] ci = Quantiles.medianInterval(values, LEVEL);
            String verdict = verdictRow ? roundsVerdict(judged, values.size(), goal) : "";
            md.append(String.format(Locale.ROOT, "| %s | %d | %.4f | %.4f .. %.4f | %.4f .. %.4f | %s | %s |%n",
                    label, q.n(), q.median(), ci[0], ci[1], q.q1(), q.q3(), String.join("; ", perRound), verdict));
            if (verdictRow) {
                acrossRounds = roundMedians;
                judgedRounds = judged;
                unsteadyRounds = unsteady;
            }
        }
        if (acrossRounds.size() >= 2) {
            double[] ci = Quantiles.medianInterval(acrossRounds, LEVEL);
            double[] meanCi = Quantiles.meanInterval95(acrossRounds);
            md.append(String.format(Locale.ROOT, "%nAcross rounds (each a fresh pair of JVMs, the independent unit):"
                    + " the %d rounds' after / before, ops per wall second in quiet cycles, have median %.4f, %s"
                    + " interval %.4f .. %.4f (order statistics over the rounds), mean %.4f, 95 %% interval %.4f .."
                    + " %.4f (Student's t), standard deviation %.4f. The cycles' interval above treats every cycle as"
                    + " independent; cycles of one round share their JVMs, so when the rounds spread more than the"
                    + " cycles within them, the rounds' interval is the precision of the measurement.%n",
                    acrossRounds.size(), Quantiles.of(acrossRounds).median(), pct(LEVEL), ci[0], ci[1],
                    Quantiles.mean(acrossRounds), meanCi[0], meanCi[1], Quantiles.standardDeviation(acrossRounds)));
            if (unsteadyRounds > 0 && judgedRounds.size() >= 2) {
                double[] judgedCi = Quantiles.meanInterval95(judgedRounds);
                md.append(String.format(Locale.ROOT, "%nThe verdict's %d judged rounds (%d not judged: their before"
                        + " phase drifted by more than %.0f %% between its halves) have mean %.4f, 95 %% interval"
                        + " %.4f .. %.4f, standard deviation %.4f.%n", judgedRounds.size(), unsteadyRounds,
                        MAX_BEFORE_DRIFT * 100, Quantiles.mean(judgedRounds), judgedCi[0], judgedCi[1],
                        Quantiles.standardDeviation(judgedRounds)));
            }
        }
    }

    /**
     * The verdict on a goal, taken over rounds: shown when there are at least
     * {@value #MIN_QUIET_CYCLES} quiet cycles and {@value #MIN_JUDGED_ROUNDS} judged rounds, and the
     * lower end of the 95 % interval of the mean of the judged rounds' medians
     * ({@link Quantiles#meanInterval95}) reaches {@code goal}.
     *
     * @param judged the medians of the judged rounds: with at least {@value #MIN_ROUND_CYCLES} quiet
     *               cycles; in the attach rounds also at least {@value #MIN_BEFORE_CYCLES} quiet cycles before the attach and a before
     *               phase that drifted by at most {@link #MAX_BEFORE_DRIFT}
     * @param quietCycles the quiet cycles over all rounds (after the attach, in the attach rounds)
     */
    static String roundsVerdict(List<Double> judged, int quietCycles, double goal) {
        boolean enough = quietCycles >= MIN_QUIET_CYCLES && judged.size() >= MIN_JUDGED_ROUNDS;
        double[] mean = judged.size() >= 2 ? Quantiles.meanInterval95(judged) : null;
        return String.format(Locale.ROOT, "≥ %.3f: %s", goal, enough && mean[0] >= goal ? "**shown**" : "**not shown**")
                + (mean == null ? "" : String.format(Locale.ROOT, " (mean of %d rounds, 95 %% interval %.4f .. %.4f)",
                        judged.size(), mean[0], mean[1]));
    }

    private void rates(StringBuilder md) {
        md.append("\n## Rates per setup (medians over rounds of each round's sums)\n\n")
                .append("`cores received`: the child's CPU seconds per thawed second (all its threads), in all"
                        + " measured cycles and in quiet ones; when others compete, what a setup receives is the"
                        + " scheduler's doing.\n\n")
                .append("| configuration | thawed s measured per round | ops/s | ops per CPU-s | ops per worker CPU-s"
                        + " | cores received, all cycles | quiet cycles | JFR start wait |\n"
                        + "|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Setup s : setups) {
            md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f | %.1f | %.1f | %.3f | %s | %.1f s |%n", s.label,
                    medianOverRounds(r -> sum(r, s, Slice::wallNanos) / 1e9),
                    medianOverRounds(r -> CycleRatios.rateOfSums(r.cycles(), s, Slice.Rate.WALL)),
                    medianOverRounds(r -> CycleRatios.rateOfSums(r.cycles(), s, Slice.Rate.CPU)),
                    medianOverRounds(r -> CycleRatios.rateOfSums(r.cycles(), s, Slice.Rate.WORKER_CPU)),
                    coresReceived(cycles(Round::cycles), s), cycles(this::quietCycles).isEmpty() ? "–"
                            : String.format(Locale.ROOT, "%.3f", coresReceived(cycles(this::quietCycles), s)),
                    medianOverRounds(r -> r.ends().get(s).awaitMillis() / 1000.0)));
        }
    }

    private void cpu(StringBuilder md) {
        md.append("\n## CPU time by thread kind, per second thawed (medians over rounds)\n\n")
                .append("Read by the parent from `/proc/<pid>/task/*/schedstat` of the frozen child before and after"
                        + " each slice: milliseconds on a CPU per second of thawed wall time, by native thread name."
                        + " `agent` = `cctflow-*` and `kafka-*` threads (the agent's JFR stream is parsed on"
                        + " `cctflow-sampler`), `jfr` = JFR's own threads (`JFR Sampler`, `JFR Recorder Thread`, ...)."
                        + " `(agent + jfr) / workers` is the CPU the profiling took per CPU second of work. 2,000 ms"
                        + " per s = both cores.\n\n")
                .append("| configuration | workers | agent | jfr | jit | gc | other | all | (agent + jfr) / workers |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Setup s : setups) {
            md.append("| ").append(s.label).append(" |");
            for (ThreadCpu.Kind k : ThreadCpu.Kind.values()) {
                md.append(String.format(Locale.ROOT, " %.2f |", medianOverRounds(
                        r -> sum(r, s, x -> x.cpuNanos(k)) / 1e6 / (sum(r, s, Slice::wallNanos) / 1e9))));
            }
            md.append(String.format(Locale.ROOT, " %.1f | %.4f |%n",
                    medianOverRounds(r -> sum(r, s, Slice::cpuNanos) / 1e6 / (sum(r, s, Slice::wallNanos) / 1e9)),
                    medianOverRounds(r -> (sum(r, s, x -> x.cpuNanos(ThreadCpu.Kind.AGENT))
                            + sum(r, s, x -> x.cpuNanos(ThreadCpu.Kind.JFR)))
                            / sum(r, s, x -> x.cpuNanos(ThreadCpu.Kind.WORKERS)))));
        }
    }

    private void heap(StringBuilder md) {
        // without none (the attach rounds), against the plain JFR child
        Setup base = setups.contains(Setup.NONE) ? Setup.NONE : Setup.JFR_20;
        md.append("\n## Agent heap (goal < 32 MiB)\n\n")
                .append("Used heap after two `System.gc()` at the end of each child, minus the same figure of the ")
                .append(base.label).append(" child of the same round (the workload keeps almost nothing alive, so"
                        + " the rest is the agent with its JFR consumer). RSS grows by more: JFR's native buffers and"
                        + " the agent's code and threads.\n\n")
                .append("| configuration | heap − ").append(base.label).append(", median | min .. max | RSS − ")
                .append(base.label).append(", median |\n|---|---:|---:|---:|\n");
        for (Setup s : setups) {
            if (s == base) {
                continue;
            }
            List<Double> heap = new ArrayList<>();
            List<Double> rss = new ArrayList<>();
            for (Round r : rounds) {
                heap.add((r.ends().get(s).heapAfterGcBytes() - r.ends().get(base).heapAfterGcBytes()) / MIB);
                rss.add((r.ends().get(s).rssBytes() - r.ends().get(base).rssBytes()) / MIB);
            }
            Quantiles h = Quantiles.of(heap);
            md.append(String.format(Locale.ROOT, "| %s | %.2f MiB | %.2f .. %.2f | %.1f MiB |%n",
                    s.label, h.median(), h.min(), h.max(), Quantiles.of(rss).median()));
        }
    }

    private void wire(StringBuilder md) {
        if (wire.isEmpty()) {
            return;
        }
        md.append("\n## On the wire (all rounds, read back from the broker)\n\n")
                .append("| configuration | batches | samples | truncated | distinct stacks | Avro bytes / sample"
                        + " | Kafka log bytes / sample (gzip) | stats.samplesSeen | samples / thawed s / thread |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Map.Entry<Setup, WireStats> e : wire.entrySet()) {
            WireStats w = e.getValue();
            double seconds = thawedSeconds.getOrDefault(e.getKey(), Double.NaN);
            md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %.2f | %.2f | %d | %.1f |%n",
                    e.getKey().label, w.batches(), w.samples(), w.truncatedSamples(), w.stacks(),
                    w.avroBytesPerSample(), w.logBytesPerSample(), w.samplesSeen(), w.samples() / seconds / threads));
        }
        md.append("\n`samples / thawed s / thread`: all samples divided by the thawed seconds of the warm-up and"
                + " measured slices of all rounds (for an attached agent, of the slices after the attach) and by"
                + " the threads; the agent also samples while the child starts and ends, so this is slightly high. Batches: a frozen child's flush timer fires when it is"
                + " thawed, so with `--flush` shorter than a cycle every slice of an agent child holds a flush"
                + " (more batches per thawed second than the flush interval says).\n");
    }

    private void perRound(StringBuilder md) {
        md.append("\n## Per round (median of per-cycle ratios of ops per wall second, all cycles)\n\n"
                + "| round | cycles | quiet |");
        List<Pair> pairs = pairs();
        for (Pair p : pairs) {
            md.append(' ').append(p.label()).append(" |");
        }
        md.append(" load average after |\n|---:|---:|---:|").append("---:|".repeat(pairs.size())).append("---|\n");
        Map<Setup, Integer> warnings = new EnumMap<>(Setup.class);
        for (Round r : rounds) {
            md.append("| ").append(r.number()).append(" | ").append(r.cycles().size()).append(" | ")
                    .append(quietCycles(r).size()).append(" |");
            for (Pair p : pairs) {
                md.append(String.format(Locale.ROOT, " %.4f |",
                        Quantiles.of(CycleRatios.perCycle(r.cycles(), p.a(), p.b(), Slice.Rate.WALL)).median()));
            }
            md.append(' ').append(r.loadAverage()).append(" |\n");
            r.ends().forEach((s, end) -> warnings.merge(s, end.agentWarnings(), Integer::sum));
        }
        List<String> bySetup = new ArrayList<>();
        for (Setup s : setups) {
            if (s.isAgent() || s.isAttached()) {
                bySetup.add(s.label + " " + warnings.getOrDefault(s, 0));
            }
        }
        md.append("\nAgent warnings (`[cctflow-agent] WARN` lines) over all rounds' children, by setup: ")
                .append(bySetup.isEmpty() ? "no agent ran" : String.join(", ", bySetup)).append('\n');
    }

    private static double coresReceived(List<Slice[]> cycles, Setup s) {
        long cpu = 0;
        long wall = 0;
        for (Slice[] cycle : cycles) {
            cpu += cycle[s.ordinal()].cpuNanos();
            wall += cycle[s.ordinal()].wallNanos();
        }
        return (double) cpu / wall;
    }

    private double medianOverRounds(ToDoubleFunction<Round> f) {
        List<Double> values = new ArrayList<>();
        for (Round r : rounds) {
            values.add(f.applyAsDouble(r));
        }
        return Quantiles.of(values).median();
    }

    private static double sum(Round r, Setup s, java.util.function.ToLongFunction<Slice> f) {
        long total = 0;
        for (Slice[] cycle : r.cycles()) {
            total += f.applyAsLong(cycle[s.ordinal()]);
        }
        return total;
    }

    private static String pct(double level) {
        return String.format(Locale.ROOT, "%.0f %%", level * 100);
    }
}
