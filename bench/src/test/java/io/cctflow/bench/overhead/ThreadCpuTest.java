package io.cctflow.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import io.cctflow.bench.overhead.ThreadCpu.Kind;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    @Test
    void nativeThreadNamesMapToKinds() {
        // names as /proc shows them: at most 15 characters
        assertThat(ThreadCpu.kindOf("worker-2")).isEqualTo(Kind.WORKERS);
        assertThat(ThreadCpu.kindOf("cctflow-sampler")).isEqualTo(Kind.AGENT);
        assertThat(ThreadCpu.kindOf("kafka-producer-")).isEqualTo(Kind.AGENT);
        assertThat(ThreadCpu.kindOf("JFR Sampler")).isEqualTo(Kind.JFR);
        assertThat(ThreadCpu.kindOf("JFR Recorder Th")).isEqualTo(Kind.JFR);
        assertThat(ThreadCpu.kindOf("C2 CompilerThre")).isEqualTo(Kind.JIT);
        assertThat(ThreadCpu.kindOf("G1 Conc#0")).isEqualTo(Kind.GC);
        assertThat(ThreadCpu.kindOf("GC Thread#1")).isEqualTo(Kind.GC);
        assertThat(ThreadCpu.kindOf("VM Thread")).isEqualTo(Kind.OTHER);
    }

    /**
     * Two threads of one name, each woken five times to spin, show as one row with both
     * threads' CPU and runs; a thread that did nothing between the snapshots has neither.
     */
    @Test
    void sumsCpuAndRunsOfTheThreadsOfOneNameBetweenTwoSnapshots() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc");
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(2);
        CountDownLatch end = new CountDownLatch(1);
        Runnable spinner = () -> {
            try {
                go.await();
                for (int wake = 0; wake < 5; wake++) {
                    // off the CPU for a moment, so each spin begins with a wake-up
                    Thread.sleep(1);
                    // 2 ms on the CPU (the scheduler's count, as schedstat's), however long it waits
                    long until = cpu.getCurrentThreadCpuTime() + 2_000_000;
                    while (cpu.getCurrentThreadCpuTime() < until) {
                        Thread.onSpinWait();
                    }
                }
                done.countDown();
                // stays alive until the second snapshot, so its task is still listed
                end.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        Thread a = new Thread(spinner, "probe-spin");
        Thread b = new Thread(spinner, "probe-spin");
        Thread idle = new Thread(() -> {
            try {
                end.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "probe-idle");
        a.start();
        b.start();
        idle.start();
        // all three exist, and sleep, before the first snapshot
        while (a.getState() != Thread.State.WAITING || b.getState() != Thread.State.WAITING
                || idle.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        long pid = ProcessHandle.current().pid();
        ThreadCpu before = ThreadCpu.of(pid);
        go.countDown();
        done.await();
        ThreadCpu after = ThreadCpu.of(pid);
        end.countDown();

        List<ThreadCpu.Use> uses = after.byName(before);
        ThreadCpu.Use spin = uses.stream().filter(u -> u.name().equals("probe-spin")).findFirst().orElseThrow();
        ThreadCpu.Use still = uses.stream().filter(u -> u.name().equals("probe-idle")).findFirst().orElseThrow();
        assertThat(spin.threads()).isEqualTo(2);
        // 10 ms of spinning in all, in 10 wake-ups (a spin may also be preempted: more runs)
        assertThat(spin.cpuNanos()).isGreaterThanOrEqualTo(10_000_000L);
        // a count, not schedstat's other fields (nanoseconds on a CPU and waiting for one)
        assertThat(spin.runs()).isBetween(10L, 999L);
        assertThat(still.threads()).isEqualTo(1);
        assertThat(still.cpuNanos()).isZero();
        assertThat(still.runs()).isZero();
        assertThat(uses).extracting(ThreadCpu.Use::cpuNanos).isSortedAccordingTo(Comparator.reverseOrder());
    }

    @Test
    void formatsEveryKindInOrder() {
        assertThat(ThreadCpu.format(new long[] {1, 2, 3, 4, 5, 6}))
                .isEqualTo("workers=1 agent=2 jfr=3 jit=4 gc=5 other=6");
    }
}
