package io.cctflow.bench.overhead;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Starts one {@link OverheadWorkload} child JVM, waits for it and reads its result line. */
final class ChildRun {
    private static final Pattern RESULT = Pattern.compile(
            "RESULT ops=(\\d+) nanos=(\\d+) cpuNanos=(\\d+) heapAfterGc=(\\d+) rss=(\\d+) awaitMillis=(\\d+) checksum=(-?\\d+)");
    /** What a child may take beyond warm-up and measurement: start-up, GC, the agent's exit. */
    private static final Duration SLACK = Duration.ofSeconds(180);

    private static final Pattern CPU = Pattern.compile(
            "CPU workers=(\\d+) agent=(-?\\d+) jfr=(-?\\d+) jit=(-?\\d+) gc=(-?\\d+) other=(-?\\d+)");

    /**
     * What one child measured; {@code cpuByKind} is indexed by {@link ThreadCpu.Kind} ordinal, all
     * zero where {@code /proc} has no per-thread figures.
     */
    record Result(Setup setup, int round, long ops, long nanos, long cpuNanos, long heapAfterGcBytes,
            long rssBytes, long awaitMillis, long wallMillis, int agentWarnings, long[] cpuByKind) {
        /** CPU time of one kind of thread in the measured interval. */
        long cpuNanos(ThreadCpu.Kind kind) {
            return cpuByKind[kind.ordinal()];
        }

        /** Operations per second of wall time. */
        double opsPerSecond() {
            return ops * 1e9 / nanos;
        }

        /** Operations per second of the whole process's CPU time. */
        double opsPerCpuSecond() {
            return ops * 1e9 / cpuNanos;
        }
    }

    private ChildRun() {
    }

    /**
     * Runs the child with {@code jvmOptions}; its output goes to {@code <outDir>/<setup>-r<round>.out/.err}.
     *
     * @throws IllegalStateException if it fails, prints no result or overruns (it is then killed)
     */
    static Result run(Setup setup, int round, List<String> jvmOptions, OverheadOptions options, Path outDir)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms" + options.heap());
        command.add("-Xmx" + options.heap());
        command.add("-XX:+UseG1GC");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(ownClassPath());
        command.add(OverheadWorkload.class.getName());
        command.add(Integer.toString(options.threads()));
        command.add(Long.toString(options.warmup().toMillis()));
        command.add(Long.toString(options.measure().toMillis()));
        if (setup != Setup.NONE) {
            command.add(OverheadWorkload.AWAIT_JFR);
        }

        Path out = outDir.resolve(setup.id() + "-r" + round + ".out");
        Path err = outDir.resolve(setup.id() + "-r" + round + ".err");
        long start = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        Duration limit = options.warmup().plus(options.measure()).plus(SLACK);
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException(setup.label + " round " + round + ": the child did not exit within "
                    + limit + "; see " + err);
        }
        long wallMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        Matcher m = RESULT.matcher(stdout);
        if (process.exitValue() != 0 || !m.find()) {
            throw new IllegalStateException(setup.label + " round " + round + ": the child exited with "
                    + process.exitValue() + " and no result; command: " + String.join(" ", command)
                    + "\nstderr (" + err + "):\n" + stderr);
        }
        int warnings = (int) stderr.lines().filter(l -> l.contains("[cctflow-agent] WARN")).count();
        return new Result(setup, round, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)), Long.parseLong(m.group(4)), Long.parseLong(m.group(5)),
                Long.parseLong(m.group(6)), wallMillis, warnings, cpuByKind(stdout));
    }

    private static long[] cpuByKind(String stdout) {
        long[] byKind = new long[ThreadCpu.Kind.values().length];
        Matcher m = CPU.matcher(stdout);
        if (m.find()) {
            for (int i = 0; i < byKind.length; i++) {
                byKind[i] = Long.parseLong(m.group(i + 1));
            }
        }
        return byKind;
    }

    /** Where our classes are: the child needs the workload and nothing else. */
    private static String ownClassPath() {
        try {
            return Path.of(OverheadWorkload.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the benchmark's classes", e);
        }
    }
}
