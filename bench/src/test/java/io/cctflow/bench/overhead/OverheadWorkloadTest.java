package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's host JVM as the parent runs it: a real child process, READY, END, RESULT. */
class OverheadWorkloadTest {

    private static final String TENURED = "moved the workers' state to the old generation";

    @Test
    void tenureCollectsOnceTheStateIsBuiltBeforeTheWorkersStart(@TempDir Path dir) throws Exception {
        Run run = run(dir, List.of(OverheadWorkload.TENURE));

        assertThat(run.stderr).contains(TENURED);
        // two full collections before READY, two more at END (for the heap figure)
        assertThat(run.fullCollectionsBeforeEnd).isEqualTo(2);
        assertThat(run.fullCollections).isEqualTo(4);
        assertThat(run.ops).isPositive();
    }

    @Test
    void withoutTenureTheWorkersBuildTheirOwnStateAndNothingIsCollectedForIt(@TempDir Path dir) throws Exception {
        Run run = run(dir, List.of());

        assertThat(run.stderr).doesNotContain(TENURED);
        assertThat(run.fullCollectionsBeforeEnd).isZero();
        assertThat(run.fullCollections).isEqualTo(2);
        assertThat(run.ops).isPositive();
    }

    @Test
    void streamJfrOpensARunningRecordingOnAThreadCountedAsJfrs(@TempDir Path dir) throws Exception {
        // --await-jfr gives up after two minutes without a running recording: READY proves the stream runs
        Run run = run(dir, List.of(OverheadWorkload.STREAM_JFR, OverheadWorkload.AWAIT_JFR));

        assertThat(run.ops).isPositive();
        if (!run.threadNames.isEmpty()) {
            // Linux: the parent reads CPU by thread name (at most 15 characters in /proc)
            assertThat(run.threadNames).contains(OverheadWorkload.STREAM_THREAD.substring(0, 15));
            assertThat(ThreadCpu.kindOf(OverheadWorkload.STREAM_THREAD.substring(0, 15))).isEqualTo(ThreadCpu.Kind.JFR);
        }
    }

    @Test
    void dumpJfrRecordsOnAThreadCountedAsJfrs(@TempDir Path dir) throws Exception {
        Run run = run(dir, List.of("-D" + OverheadWorkload.DUMP_MILLIS + "=500"),
                List.of(OverheadWorkload.DUMP_JFR, OverheadWorkload.AWAIT_JFR), OverheadWorkload.DUMP_THREAD + ": read ");

        assertThat(run.ops).isPositive();
        assertThat(run.stderr).doesNotContain(OverheadWorkload.DUMP_THREAD + " ended")
                .containsPattern(Pattern.quote(OverheadWorkload.DUMP_THREAD) + ": read [1-9][0-9]* events");
        if (!run.threadNames.isEmpty()) {
            assertThat(run.threadNames).contains(OverheadWorkload.DUMP_THREAD.substring(0, 15));
            assertThat(ThreadCpu.kindOf(OverheadWorkload.DUMP_THREAD.substring(0, 15))).isEqualTo(ThreadCpu.Kind.JFR);
        }
    }

    private record Run(String stderr, long fullCollectionsBeforeEnd, long fullCollections, long ops,
            List<String> threadNames) {
    }

    private static Run run(Path dir, List<String> flags) throws Exception {
        return run(dir, List.of(), flags, null);
    }

    /** As above with extra JVM options, ending the child only once its stderr holds {@code awaitErr} (if not null). */
    private static Run run(Path dir, List<String> jvmOptions, List<String> flags, String awaitErr) throws Exception {
        Path gcLog = dir.resolve("gc.log");
        Path counters = dir.resolve("ops");
        Path err = dir.resolve("err");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-XX:+UseG1GC", "-Xlog:gc:file=" + gcLog.toAbsolutePath()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp",
                System.getProperty("java.class.path"), OverheadWorkload.class.getName(), "2", counters.toString()));
        command.addAll(flags);
        Process child = new ProcessBuilder(command).redirectError(err.toFile()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
                Writer in = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8)) {
            long awaitMillis = SliceProtocol.parseReady(out.readLine());
            if (!flags.contains(OverheadWorkload.AWAIT_JFR)) {
                assertThat(awaitMillis).isZero();
            }
            OpsCounters ops = OpsCounters.open(counters, 2);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ops.sum() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            while (awaitErr != null && !Files.readString(err).contains(awaitErr) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            long before = fullCollections(gcLog);
            List<String> threadNames = threadNames(child.pid());
            in.write(SliceProtocol.END + "\n");
            in.flush();
            SliceProtocol.Result result = SliceProtocol.parseResult(out.readLine());
            assertThat(result.heapAfterGcBytes()).isPositive();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            return new Run(Files.readString(err), before, fullCollections(gcLog), ops.sum(), threadNames);
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The native names of the process's threads; empty where there is no {@code /proc}. */
    private static List<String> threadNames(long pid) throws Exception {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(tasks)) {
            try (var dirs = Files.list(tasks)) {
                for (Path task : dirs.toList()) {
                    names.add(Files.readString(task.resolve("comm")).strip());
                }
            }
        }
        return names;
    }

    private static long fullCollections(Path gcLog) throws Exception {
        return Files.readAllLines(gcLog).stream().filter(l -> l.contains("Pause Full (System.gc())")).count();
    }
}
