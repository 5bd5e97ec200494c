package io.cctflow.standalone.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One process of the cluster: a child JVM whose output is appended to a log file, which can be
 * stopped (SIGTERM), killed ({@code kill -9}) and started again with the same command. Not
 * thread-safe; the {@link Cluster} drives it.
 */
public final class ChildJvm implements AutoCloseable {
    private final String name;
    private final Path log;
    private final Supplier<Process> launcher;
    private Process process;

    private ChildJvm(String name, Path log, Supplier<Process> launcher) {
        this.name = name;
        this.log = log;
        this.launcher = launcher;
    }

    /** A child started by {@code launcher} (again on {@link #restart}); started now. */
    static ChildJvm start(String name, Path log, Supplier<Process> launcher) {
        ChildJvm child = new ChildJvm(name, log, launcher);
        child.process = launcher.get();
        return child;
    }

    /**
     * A launcher of {@code java [jvmOptions] -cp classPath WatchedMain mainClass args}, in
     * {@code workDir}, output appended to {@code log}.
     */
    static Supplier<Process> java(List<String> jvmOptions, String classPath, String mainClass, List<String> args,
            Path workDir, Path log) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(WatchedMain.class.getName());
        command.add(mainClass);
        command.addAll(args);
        return () -> launch(command, workDir, log);
    }

    /** Starts {@code command} in {@code workDir} with output appended to {@code log}. */
    static Process launch(List<String> command, Path workDir, Path log) {
        try {
            Files.createDirectories(workDir);
            Files.writeString(log, "cctflow: " + Instant.now() + " starting " + String.join(" ", command) + "\n",
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            return new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The process itself, e.g. to wait for its exit. */
    Process process() {
        return process;
    }

    /** {@code kill -9}: no shutdown hook, no clean close of files or sockets. Waits until it is gone. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Starts the same command again (after {@link #kill} or {@link #close}). */
    public void restart() {
        if (process.isAlive()) {
            throw new IllegalStateException(name + " is still running (pid " + process.pid() + ")");
        }
        process = launcher.get();
    }

    /** Resident memory from {@code /proc}, in MiB; -1 where it cannot be read. */
    public long rssMib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return -1;
    }

    /** SIGTERM, which runs the child's shutdown hooks; after 30 s a SIGKILL. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already closed with the process
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }
}
