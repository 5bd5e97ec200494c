package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessFreezerTest {

    @Test
    void statLinesShowTheStateAfterTheNameEvenWithParenthesesInIt() {
        assertThat(ProcessFreezer.isStopped("4242 (java) T 1 4242 0 0")).isTrue();
        assertThat(ProcessFreezer.isStopped("4243 (C2 CompilerThre) t 1 4242")).isTrue();
        assertThat(ProcessFreezer.isStopped("4244 (worker (1) x) R 1 4242")).isFalse();
        assertThat(ProcessFreezer.isStopped("4245 (sleep) S 1 4242")).isFalse();
        assertThatThrownBy(() -> ProcessFreezer.isStopped("garbage")).hasMessageContaining("'garbage'");
    }

    @Test
    void freezesAndThawsARealProcessAndCountsItsOperationsWhileFrozen(@TempDir Path dir) throws Exception {
        assumeThat(Files.isDirectory(Path.of("/proc/self/task"))).as("Linux /proc").isTrue();
        Path counters = dir.resolve("ops");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), CountingChild.class.getName(), counters.toString())
                .redirectErrorStream(true).start();
        try (ProcessFreezer freezer = new ProcessFreezer()) {
            OpsCounters ops = awaitCounting(counters);
            freezer.freeze(child.pid());

            assertThat(ProcessFreezer.allStopped(child.pid())).isTrue();
            long frozen = ops.sum();
            // a frozen child's count stays put: read it again after 100 ms in which it would have counted
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            assertThat(ops.sum()).isEqualTo(frozen);

            freezer.thaw(child.pid());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (ops.sum() == frozen && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(ops.sum()).as("counting again after the thaw").isGreaterThan(frozen);
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void signallingAProcessThatIsGoneSaysSo() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(30, TimeUnit.SECONDS);
        try (ProcessFreezer freezer = new ProcessFreezer()) {
            assertThatThrownBy(() -> freezer.thaw(gone.pid())).hasMessageContaining("kill -s CONT " + gone.pid());
        }
    }

    /** Waits (up to a minute) until the child has created its counter file and counted once. */
    static OpsCounters awaitCounting(Path file) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (Files.exists(file) && Files.size(file) > 0) {
                OpsCounters ops = OpsCounters.open(file, 1);
                if (ops.sum() > 0) {
                    return ops;
                }
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("the child did not start counting within a minute");
    }

    /** A child that counts as fast as it can into an {@link OpsCounters} file. */
    public static final class CountingChild {
        public static void main(String[] args) throws Exception {
            OpsCounters ops = OpsCounters.create(Path.of(args[0]), 1);
            for (long n = 1; ; n++) {
                ops.set(0, n);
            }
        }
    }
}
