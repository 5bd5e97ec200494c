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

    /** Agent settings of every run: JFR's {@code profile} period and short flushes for short runs. */
    static final String PERIOD = "10ms";
    static final String FLUSH = "2s";
    static final int STACK_DEPTH = 1024;

    /**
     * Runs the workload to its end.
     *
     * @throws IOException when the JVM fails or exceeds {@code seconds} plus five minutes, naming its log
     */
    static ProfiledRun run(Application app, String version, String instance, Path jar, Path script, int seconds,
            Path agentJar, String kafka, Path log) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(PipelineProcess.javaBinary());
        command.add("-XX:FlightRecorderOptions:stackdepth=" + STACK_DEPTH);
        command.add("-javaagent:" + agentJar.toAbsolutePath() + "=bootstrap.servers=" + kafka + ",service=" + app.name()
                + ",version=" + version + ",instance=" + instance + ",period=" + PERIOD + ",flush=" + FLUSH
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
