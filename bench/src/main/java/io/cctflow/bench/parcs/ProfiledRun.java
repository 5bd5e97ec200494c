package io.cctflow.bench.parcs;

import io.cctflow.bench.AgentAttach;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One run of one release under the cctflow agent: a child JVM publishing to the pipeline's Kafka as
 * execution (application, version, instance). With a warm-up the JVM starts without the agent and
 * the agent is attached (Attach API) once the warm-up has passed, so no sample comes from the
 * application's start-up or its first JIT compilations; without one it runs with {@code -javaagent}
 * from the start.
 *
 * @param version the release's version, the deployment version of its samples
 * @param instance instance id of this run (one execution per run)
 * @param wallTime how long the JVM ran, start-up and warm-up included
 * @param sampledTime from the agent's attach until the JVM ended (the whole wall time without a
 *     warm-up); null in reports written before it was recorded
 */
record ProfiledRun(String version, String instance, Duration wallTime, Duration sampledTime) {

    /** Agent settings of every run: short flushes for short runs, deep stacks. */
    static final String FLUSH = "2s";
    static final int STACK_DEPTH = 1024;
    /**
     * Options of the workload JVM. With {@code DebugNonSafepoints} HotSpot records debug scopes at
     * every instruction of compiled code, not only at safepoints, so a sample is attributed to the
     * (inlined) method it was in rather than to the nearest safepoint's, which depends on each run's
     * inlining. Without tiered compilation and with {@code -Xbatch} a method is compiled once by C2,
     * from the interpreter's profile, while the thread that reached the threshold waits: which
     * compilations happen, and so how the hot loops' code attributes samples to inlined methods,
     * then no longer depends on how long the compile queues were in that run (with tiered
     * compilation the level chosen for a method does).
     */
    static final List<String> JVM_OPTIONS = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints",
            "-XX:-TieredCompilation", "-Xbatch", "-XX:FlightRecorderOptions:stackdepth=" + STACK_DEPTH);

    /** How every run is sampled, for the report. */
    static String settings(int periodMillis, int warmupSeconds) {
        return "agent period=" + periodMillis + "ms, flush=" + FLUSH + ", stackdepth=" + STACK_DEPTH + "; JVM "
                + String.join(" ", JVM_OPTIONS) + "; " + (warmupSeconds > 0 ? "agent attached after a " + warmupSeconds
                        + " s warm-up (start-up and warm-up not sampled)" : "agent from the start (-javaagent)");
    }

    /**
     * Runs the workload for {@code warmupSeconds + seconds} to its end, sampling the last
     * {@code seconds} (all of it when {@code warmupSeconds} is 0).
     *
     * @throws IOException when the JVM fails, ends during the warm-up, refuses the agent, or exceeds
     *     its time plus five minutes, naming its log
     */
    static ProfiledRun run(Application app, String version, String instance, Path jar, Path script, int warmupSeconds,
            int seconds, int periodMillis, Path agentJar, String kafka, Path log) throws IOException, InterruptedException {
        String agentArgs = "bootstrap.servers=" + kafka + ",service=" + app.name() + ",version=" + version
                + ",instance=" + instance + ",period=" + periodMillis + "ms,flush=" + FLUSH + ",stackdepth=" + STACK_DEPTH;
        List<String> command = new ArrayList<>();
        command.add(PipelineProcess.javaBinary());
        command.addAll(JVM_OPTIONS);
        if (warmupSeconds == 0) {
            command.add("-javaagent:" + agentJar.toAbsolutePath() + "=" + agentArgs);
        }
        // run from the script's directory with its bare name: JRuby names the classes it compiles
        // Ruby methods into after the script's path, which must not depend on where a harness ran
        command.addAll(app.workload(jar.toAbsolutePath(), script.getFileName(), warmupSeconds + seconds));
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).directory(script.toAbsolutePath().getParent().toFile())
                .redirectErrorStream(true).redirectOutput(log.toAbsolutePath().toFile()).start();
        long sampledFrom = start;
        if (warmupSeconds > 0) {
            if (p.waitFor(warmupSeconds, TimeUnit.SECONDS)) {
                throw new IOException(app.name() + " " + version + " ended during its " + warmupSeconds
                        + " s warm-up (exit " + p.exitValue() + "); see " + log);
            }
            attach(p, agentJar, agentArgs, app.name() + " " + version, log);
            sampledFrom = System.nanoTime();
        }
        if (!p.waitFor(warmupSeconds + seconds + 300L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(app.name() + " " + version + " did not finish; see " + log);
        }
        if (p.exitValue() != 0) {
            throw new IOException(app.name() + " " + version + " exited with " + p.exitValue() + "; see " + log);
        }
        long end = System.nanoTime();
        return new ProfiledRun(version, instance, Duration.ofNanos(end - start), Duration.ofNanos(end - sampledFrom));
    }

    /** Loads the agent into the running JVM {@code p} (its {@code agentmain}), as users attach it. */
    private static void attach(Process p, Path agentJar, String agentArgs, String what, Path log) throws IOException {
        try {
            AgentAttach.load(p.pid(), agentJar, agentArgs, what);
        } catch (IOException e) {
            p.destroyForcibly();
            throw new IOException(e.getMessage() + "; see " + log, e);
        }
    }
}
