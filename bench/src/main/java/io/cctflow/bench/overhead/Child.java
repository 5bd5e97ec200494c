package io.cctflow.bench.overhead;

import io.cctflow.bench.AgentAttach;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One {@link OverheadWorkload} child JVM of a round, measured in slices: while it is frozen the
 * parent reads its operation counters ({@link OpsCounters}) and its threads' CPU times
 * ({@link ThreadCpu#of}), thaws it for the slice, freezes it again and reads them again. Its stdout
 * lines (READY, RESULT) are collected by a daemon thread; stdout and stderr are also kept in
 * {@code <setup>-r<round>.out/.err}. Not thread-safe: one controlling thread.
 */
final class Child {
    /** How long a child may take to start and report READY (JVM, agent, broker connection). */
    private static final Duration READY_LIMIT = Duration.ofSeconds(180);
    /** How long a child may take from END to its exit (GC, the agent's shutdown flush). */
    private static final Duration END_LIMIT = Duration.ofSeconds(120);

    final Setup setup;
    final int round;
    private final Process process;
    /** Mapped once the child reported READY (it creates the file). */
    private OpsCounters counters;
    private final Writer commands;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> stdout = new ArrayList<>();
    private final Path out;
    private final Path err;
    private long awaitMillis;

    private Child(Setup setup, int round, Process process, Path out, Path err) {
        this.setup = setup;
        this.round = round;
        this.process = process;
        this.out = out;
        this.err = err;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(this::readLines, "child-stdout-" + setup.id());
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts the child, waits for its READY line and freezes it.
     *
     * @param preload a list of classes ({@link AgentClassLoads}) the child loads before its workers
     *                start, with the agent jar on its class path
     * @throws IllegalStateException if it exits or does not report READY in time (it is then killed)
     */
    static Child start(Setup setup, int round, List<String> jvmOptions, OverheadOptions options, Path outDir,
            ProcessFreezer freezer, Optional<Path> preload) throws IOException, InterruptedException {
        Path countersFile = outDir.resolve(setup.id() + "-r" + round + ".ops");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xms" + options.heap());
        command.add("-Xmx" + options.heap());
        command.add("-XX:+UseG1GC");
        // one line per collection, written at its end: which children collected, and when
        command.add("-Xlog:gc:file=" + outDir.resolve(setup.id() + "-r" + round + ".gc.log").toAbsolutePath());
        command.addAll(jvmOptions);
        command.add("-cp");
        // with a preload list the agent jar is on the class path, so its classes load by name, in
        // the loader the attach later finds them in
        command.add(preload.isEmpty() ? ownClassPath()
                : ownClassPath() + File.pathSeparator + options.agentJar().toAbsolutePath());
        command.add(OverheadWorkload.class.getName());
        command.add(Integer.toString(options.threads()));
        command.add(countersFile.toString());
        command.addAll(setup.childArguments());
        if (options.tenure()) {
            command.add(OverheadWorkload.TENURE);
        }
        if (preload.isPresent()) {
            command.add(OverheadWorkload.PRELOAD);
            command.add(preload.get().toAbsolutePath().toString());
        }
        Files.writeString(outDir.resolve(setup.id() + "-r" + round + ".cmd"), String.join(" ", command) + "\n");

        Path out = outDir.resolve(setup.id() + "-r" + round + ".out");
        Path err = outDir.resolve(setup.id() + "-r" + round + ".err");
        Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
        Child child = new Child(setup, round, process, out, err);
        String ready = child.nextLine(READY_LIMIT);
        try {
            child.awaitMillis = SliceProtocol.parseReady(ready);
        } catch (IllegalArgumentException e) {
            child.kill();
            throw new IllegalStateException(setup.label + " round " + round + ": " + e.getMessage() + "; see " + err, e);
        }
        freezer.freeze(process.pid());
        child.counters = OpsCounters.open(countersFile, options.threads());
        return child;
    }

    /** Milliseconds from the child's start of work until JFR ran (0 without {@code --await-jfr}). */
    long awaitMillis() {
        return awaitMillis;
    }

    long pid() {
        return process.pid();
    }

    /**
     * Thaws the (frozen) child for {@code length}, freezes it again and returns what it did: every
     * operation and CPU nanosecond between the two freezes; the wall time from the middle of the
     * {@code SIGCONT} request to the middle of the {@code SIGSTOP} request; the rest of the
     * machine's CPU from just before the thaw to just after the freeze.
     */
    Slice measure(ProcessFreezer freezer, Duration length) throws IOException, InterruptedException {
        long opsBefore = counters.sum();
        ThreadCpu cpuBefore = ThreadCpu.of(pid());
        MachineCpu.Snapshot machineBefore = MachineCpu.take();
        long thawSent = System.nanoTime();
        freezer.thaw(pid());
        long thawDone = System.nanoTime();
        long wake = thawSent + length.toNanos();
        for (long left = wake - System.nanoTime(); left > 0; left = wake - System.nanoTime()) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
        long stopSent = System.nanoTime();
        freezer.freeze(pid());
        long stopDone = System.nanoTime();
        MachineCpu.Snapshot machineAfter = MachineCpu.take();
        long[] cpu = ThreadCpu.of(pid()).since(cpuBefore);
        long ops = counters.sum() - opsBefore;
        long wall = (stopSent + stopDone) / 2 - (thawSent + thawDone) / 2;
        return new Slice(ops, wall, cpu, machineAfter.othersNanosSince(machineBefore));
    }

    /**
     * Thaws the (frozen) child, loads an agent into it through the Attach API and freezes it again
     * once the agent's {@code agentmain} has returned (ours starts its recording on its own thread,
     * in the slices that follow). The child works while thawed, but no slice counts it.
     */
    void attachAgent(ProcessFreezer freezer, Path agentJar, String arguments) throws IOException, InterruptedException {
        freezer.thaw(pid());
        try {
            AgentAttach.load(pid(), agentJar, arguments, setup.label + " round " + round);
        } finally {
            freezer.freeze(pid());
        }
    }

    /**
     * Thaws the child, tells it to end and returns its RESULT; its stdout is written to its .out file.
     *
     * @throws IllegalStateException if it does not report or exit in time (it is then killed)
     */
    SliceProtocol.Result end(ProcessFreezer freezer) throws IOException, InterruptedException {
        freezer.thaw(pid());
        commands.write(SliceProtocol.END + "\n");
        commands.flush();
        String line = nextLine(END_LIMIT);
        SliceProtocol.Result result;
        try {
            result = SliceProtocol.parseResult(line);
        } catch (IllegalArgumentException e) {
            kill();
            throw new IllegalStateException(setup.label + " round " + round + ": " + e.getMessage() + "; see " + err, e);
        }
        if (!process.waitFor(END_LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
            throw new IllegalStateException(setup.label + " round " + round + ": did not exit within " + END_LIMIT
                    + " after END; see " + err);
        }
        Files.write(out, stdout, StandardCharsets.UTF_8);
        return result;
    }

    /** {@code [cctflow-agent] WARN} lines in the child's stderr so far. */
    int agentWarnings() throws IOException {
        return (int) Files.readString(err, StandardCharsets.UTF_8).lines()
                .filter(l -> l.contains("[cctflow-agent] WARN")).count();
    }

    /** Kills the child (frozen or not); safe to call more than once. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    private String nextLine(Duration limit) throws InterruptedException {
        BlockingQueue<String> queue = lines;
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            String line = queue.poll(100, TimeUnit.MILLISECONDS);
            if (line != null) {
                stdout.add(line);
                if (line.startsWith("READY") || line.startsWith("RESULT")) {
                    return line;
                }
                continue;
            }
            if (!process.isAlive() && queue.isEmpty()) {
                throw new IllegalStateException(setup.label + " round " + round + ": the child exited with "
                        + process.exitValue() + " before reporting; see " + err);
            }
            if (System.nanoTime() > deadline) {
                kill();
                throw new IllegalStateException(setup.label + " round " + round + ": no report within " + limit
                        + "; see " + err);
            }
        }
    }

    private void readLines() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                lines.add(line);
            }
        } catch (IOException e) {
            // the child is gone: nextLine reports it
        }
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
