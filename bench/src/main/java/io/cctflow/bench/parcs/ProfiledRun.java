package io.cctflow.bench.parcs;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One run of one release under the cctflow agent: a child JVM with {@code -javaagent}, publishing
 * to the pipeline's Kafka as execution (application, version, instance).
 *
 * @param version the release's version, the deployment version of its samples
 * @param instance instance id of this run (one execution per run)
 * @param wallTime how long the JVM ran, start-up included
 */
record ProfiledRun(String version, String instance, Duration wallTime) {

    /** Agent settings of every run: short flushes for short runs, deep stacks. */
    static final String FLUSH = "2s";
    static final int STACK_DEPTH = 1024;
    /**
     * Options of the workload JVM: with {@code DebugNonSafepoints} HotSpot records debug scopes at
     * every instruction of compiled code, not only at safepoints, so a sample is attributed to the
     * (inlined) method it was in rather than to the nearest safepoint's, which depends on each run's
     * inlining.
     */
    static final List<String> JVM_OPTIONS = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+DebugNonSafepoints",
            "-XX:FlightRecorderOptions:stackdepth=" + STACK_DEPTH);

    /** How every run is sampled, for the report. */
    static String settings(int periodMillis) {
        return "agent period=" + periodMillis + "ms, flush=" + FLUSH + ", stackdepth=" + STACK_DEPTH + "; JVM "
                + String.join(" ", JVM_OPTIONS);
    }

    /**
     * Runs the workload to its end.
     *
     * @throws IOException when the JVM fails or exceeds {@code seconds} plus five minutes, naming its log
     */
    static ProfiledRun run(Application app, String version, String instance, Path jar, Path script, int seconds,
            int periodMillis, Path agentJar, String kafka, Path log) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(PipelineProcess.javaBinary());
        command.addAll(JVM_OPTIONS);
        command.add("-javaagent:" + agentJar.toAbsolutePath() + "=bootstrap.servers=" + kafka + ",service=" + app.name()
                + ",version=" + version + ",instance=" + instance + ",period=" + periodMillis + "ms,flush=" + FLUSH
                + ",stackdepth=" + STACK_DEPTH);
        // run from the script's directory with its bare name: JRuby names the classes it compiles
        // Ruby methods into after the script's path, which must not depend on where a harness ran
        command.addAll(app.workload(jar.toAbsolutePath(), script.getFileName(), seconds));
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).directory(script.toAbsolutePath().getParent().toFile())
                .redirectErrorStream(true).redirectOutput(log.toAbsolutePath().toFile()).start();
        if (!p.waitFor(seconds + 300L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(app.name() + " " + version + " did not finish; see " + log);
        }
        if (p.exitValue() != 0) {
            throw new IOException(app.name() + " " + version + " exited with " + p.exitValue() + "; see " + log);
        }
        return new ProfiledRun(version, instance, Duration.ofNanos(System.nanoTime() - start));
    }
}
