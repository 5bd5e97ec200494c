package io.cctflow.bench.overhead;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Turns the children's results into the Markdown report: throughput per setup, per-round ratios
 * (each round's runs of two setups, divided), heap and bytes per sample. Not thread-safe.
 */
final class OverheadReport {
    private static final double MIB = 1024.0 * 1024.0;

    private final int threads;
    private final double sampledSecondsPerChild;
    private final List<ChildRun.Result[]> rounds = new ArrayList<>();
    private final Map<Setup, WireStats> wire = new EnumMap<>(Setup.class);

    /**
     * @param threads                the workload's threads, for the per-thread sample rate
     * @param sampledSecondsPerChild warm-up plus measured time: how long each JFR child runs sampled
     */
    OverheadReport(int threads, double sampledSecondsPerChild) {
        this.threads = threads;
        this.sampledSecondsPerChild = sampledSecondsPerChild;
    }

    /** One complete round: {@code results[setup.ordinal()]}. */
    void addRound(ChildRun.Result[] results) {
        rounds.add(results.clone());
    }

    void addWire(Setup setup, WireStats stats) {
        wire.put(setup, stats);
    }

    int rounds() {
        return rounds.size();
    }

    /** The report; {@code header} comes first (command, machine, options). */
    String toMarkdown(String header) {
        StringBuilder md = new StringBuilder(header);
        if (rounds.isEmpty()) {
            return md.append("\nNo round completed.\n").toString();
        }
        md.append("\n## Throughput\n\n")
                .append("Operations of the whole workload per second of wall time, and per second of the child"
                        + " process's CPU time (workers, agent, JFR, GC, JIT). On a shared machine the wall-clock"
                        + " rate follows the CPU the other processes leave; the rate per CPU second charges the"
                        + " agent's own threads to it and depends much less on the neighbours. JFR start wait: from"
                        + " the child's start of work until a JFR recording ran (the agent starts on its own"
                        + " thread); warm-up began only then.\n\n")
                .append("| configuration | ops/s median | IQR | min .. max | ops per CPU-s median | IQR | min .. max"
                        + " | heap after GC, median | RSS, median | JFR start wait, median |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Setup s : Setup.values()) {
            Quantiles q = Quantiles.of(values(r -> r[s.ordinal()].opsPerSecond()));
            Quantiles c = Quantiles.of(values(r -> r[s.ordinal()].opsPerCpuSecond()));
            Quantiles heap = Quantiles.of(values(r -> r[s.ordinal()].heapAfterGcBytes() / MIB));
            Quantiles rss = Quantiles.of(values(r -> r[s.ordinal()].rssBytes() / MIB));
            Quantiles wait = Quantiles.of(values(r -> r[s.ordinal()].awaitMillis() / 1000.0));
            md.append(String.format(Locale.ROOT, "| %s | %.1f | %.1f .. %.1f | %.1f .. %.1f | %.1f | %.1f .. %.1f"
                    + " | %.1f .. %.1f | %.1f MiB | %.0f MiB | %.1f s |%n", s.label, q.median(), q.q1(), q.q3(),
                    q.min(), q.max(), c.median(), c.q1(), c.q3(), c.min(), c.max(), heap.median(), rss.median(),
                    wait.median()));
        }

        ratios(md, "wall-clock throughput", ChildRun.Result::opsPerSecond);
        ratios(md, "throughput per CPU second", ChildRun.Result::opsPerCpuSecond);

        md.append("\n## CPU time by thread kind in the measured interval (medians over rounds)\n\n")
                .append("From `/proc/self/task/*/schedstat` of each child: nanoseconds each thread spent on a CPU,"
                        + " by native thread name. `agent` = `cctflow-*` and `kafka-*` threads (the agent's JFR stream"
                        + " is parsed on `cctflow-sampler`), `jfr` = JFR's own threads (`JFR Sampler`, `JFR Recorder"
                        + " Thread`, ...). `(agent + jfr) / workers` is the CPU the profiling took per CPU second of"
                        + " work, `(agent + jfr) cores` per second of wall time (0.01 = 1 % of one core). Neither"
                        + " counts waiting for a CPU, but JFR samples by wall-clock period, so when the workers get"
                        + " little CPU the first rises. Costs inside the workers' own time (caches, safepoints) show"
                        + " in `ops per worker CPU-s`, which also drops while the workers' code is not yet, or no"
                        + " longer, compiled.\n\n")
                .append("| configuration | workers ms | agent ms | jfr ms | jit ms | gc ms | other ms"
                        + " | (agent + jfr) / workers, median | IQR | min .. max | (agent + jfr) cores, median"
                        + " | ops per worker CPU-s, median |\n")
                .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Setup s : Setup.values()) {
            md.append("| ").append(s.label).append(" |");
            for (ThreadCpu.Kind k : ThreadCpu.Kind.values()) {
                md.append(String.format(Locale.ROOT, " %.1f |",
                        Quantiles.of(values(r -> r[s.ordinal()].cpuNanos(k) / 1e6)).median()));
            }
            Quantiles share = Quantiles.of(values(r -> profilingShare(r[s.ordinal()])));
            Quantiles perWorkerCpu = Quantiles.of(values(r -> r[s.ordinal()].ops() * 1e9
                    / r[s.ordinal()].cpuNanos(ThreadCpu.Kind.WORKERS)));
            Quantiles cores = Quantiles.of(values(r -> (r[s.ordinal()].cpuNanos(ThreadCpu.Kind.AGENT)
                    + r[s.ordinal()].cpuNanos(ThreadCpu.Kind.JFR)) / (double) r[s.ordinal()].nanos()));
            md.append(String.format(Locale.ROOT, " %.4f | %.4f .. %.4f | %.4f .. %.4f | %.4f | %.0f |%n",
                    share.median(), share.q1(), share.q3(), share.min(), share.max(), cores.median(),
                    perWorkerCpu.median()));
        }

        md.append("\n## Agent heap (goal < 32 MiB)\n\n")
                .append("Used heap after two `System.gc()` at the end of each child, minus the same figure of the"
                        + " no-agent child of the same round (the workload keeps almost nothing alive, so the rest"
                        + " is the agent with its JFR consumer). RSS grows by more: JFR's native buffers and the"
                        + " agent's code and threads.\n\n")
                .append("| configuration | heap − none, median | min .. max | RSS − none, median |\n|---|---:|---:|---:|\n");
        for (Setup s : new Setup[] {Setup.AGENT_20, Setup.AGENT_10, Setup.JFR_20}) {
            Quantiles heap = Quantiles.of(values(
                    r -> (r[s.ordinal()].heapAfterGcBytes() - r[Setup.NONE.ordinal()].heapAfterGcBytes()) / MIB));
            Quantiles rss = Quantiles.of(values(
                    r -> (r[s.ordinal()].rssBytes() - r[Setup.NONE.ordinal()].rssBytes()) / MIB));
            md.append(String.format(Locale.ROOT, "| %s | %.2f MiB | %.2f .. %.2f | %.1f MiB |%n",
                    s.label, heap.median(), heap.min(), heap.max(), rss.median()));
        }

        if (!wire.isEmpty()) {
            md.append("\n## On the wire (all rounds, read back from the broker)\n\n")
                    .append("| configuration | batches | samples | truncated | distinct stacks | Avro bytes / sample"
                            + " | Kafka log bytes / sample (gzip) | stats.samplesSeen | samples / s / thread |\n")
                    .append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
            for (Map.Entry<Setup, WireStats> e : wire.entrySet()) {
                WireStats w = e.getValue();
                double childSeconds = rounds.size() * sampledSecondsPerChild;
                md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %.2f | %.2f | %d | %.1f |%n",
                        e.getKey().label, w.batches(), w.samples(), w.truncatedSamples(), w.stacks(),
                        w.avroBytesPerSample(), w.logBytesPerSample(), w.samplesSeen(),
                        w.samples() / childSeconds / threads));
            }
            md.append("\n`samples / s / thread`: all samples divided by rounds × (warm-up + measured time) ×"
                    + " threads; the agent also samples a little before the warm-up and during exit, so this is"
                    + " slightly high. JFR takes fewer samples than the period allows when threads wait for a"
                    + " CPU.\n");
        }

        md.append("\n## Per round (operations per second of wall time / per CPU second)\n\n| round |");
        for (Setup s : Setup.values()) {
            md.append(' ').append(s.label).append(" |");
        }
        md.append("\n|---|").append("---:|".repeat(Setup.values().length)).append('\n');
        for (ChildRun.Result[] r : rounds) {
            md.append("| ").append(r[0].round()).append(" |");
            for (Setup s : Setup.values()) {
                md.append(String.format(Locale.ROOT, " %.1f / %.1f |", r[s.ordinal()].opsPerSecond(),
                        r[s.ordinal()].opsPerCpuSecond()));
            }
            md.append('\n');
        }
        int warnings = rounds.stream().mapToInt(r -> r[Setup.AGENT_20.ordinal()].agentWarnings()
                + r[Setup.AGENT_10.ordinal()].agentWarnings()).sum();
        md.append("\nAgent warnings (`[cctflow-agent] WARN` lines) over all agent children: ").append(warnings)
                .append('\n');
        return md.toString();
    }

    private static double profilingShare(ChildRun.Result r) {
        long workers = r.cpuNanos(ThreadCpu.Kind.WORKERS);
        return workers == 0 ? Double.NaN
                : (double) (r.cpuNanos(ThreadCpu.Kind.AGENT) + r.cpuNanos(ThreadCpu.Kind.JFR)) / workers;
    }

    private void ratios(StringBuilder md, String what, ToDoubleFunction<ChildRun.Result> metric) {
        md.append("\n## Ratios of ").append(what).append(", per round (1.000 = no cost; 0.990 = 1 % loss)\n\n")
                .append("| ratio | median | IQR | min .. max | goal |\n|---|---:|---:|---:|---|\n");
        ratio(md, metric, Setup.AGENT_20, Setup.NONE, "≥ 0.990 (≤ 1 % loss)");
        ratio(md, metric, Setup.AGENT_10, Setup.NONE, "");
        ratio(md, metric, Setup.JFR_20, Setup.NONE, "");
        ratio(md, metric, Setup.AGENT_20, Setup.JFR_20, "≥ 0.995 (≤ 0.5 % loss)");
        ratio(md, metric, Setup.AGENT_10, Setup.AGENT_20, "");
    }

    private void ratio(StringBuilder md, ToDoubleFunction<ChildRun.Result> metric, Setup a, Setup b, String goal) {
        Quantiles q = Quantiles.of(values(
                r -> metric.applyAsDouble(r[a.ordinal()]) / metric.applyAsDouble(r[b.ordinal()])));
        md.append(String.format(Locale.ROOT, "| %s / %s | %.4f | %.4f .. %.4f | %.4f .. %.4f | %s |%n",
                a.label, b.label, q.median(), q.q1(), q.q3(), q.min(), q.max(), goal));
    }

    private List<Double> values(ToDoubleFunction<ChildRun.Result[]> f) {
        List<Double> values = new ArrayList<>(rounds.size());
        for (ChildRun.Result[] r : rounds) {
            values.add(f.applyAsDouble(r));
        }
        return values;
    }
}
