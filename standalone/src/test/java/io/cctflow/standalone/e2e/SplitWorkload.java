package io.cctflow.standalone.e2e;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A workload whose split is known by construction: each of two worker threads alternates between
 * {@link A#work} and {@link B#work} in slices of its own CPU time, 3 to 1, so whatever the
 * scheduler does, ~3/4 of the workers' CPU is spent in {@code A.work}.
 *
 * <p>Both spend their time in the same recursive {@link Fib#fib}. That is on purpose: JFR loses
 * more samples in deep recursion than in a flat loop (plain JFR measured 0.64 instead of 0.75 when
 * only {@code A.work} recursed), so two different bodies would test JFR's bias, not our pipeline.
 *
 * <p>Runs for at least the seconds given as its argument, and then until its standard input ends
 * (the test closes it once enough samples arrived: JFR delivers a varying share of its nominal
 * samples, fewer on a busy machine), or at once when it ended earlier.
 */
public final class SplitWorkload {
    static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    static volatile long sink;
    private static volatile boolean stopRequested;

    private SplitWorkload() {
    }

    public static void main(String[] args) throws Exception {
        long minimumEnd = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
        Thread[] workers = new Thread[2];
        for (int i = 0; i < workers.length; i++) {
            workers[i] = new Thread(() -> {
                while (!stopRequested || System.nanoTime() < minimumEnd) {
                    A.work(30_000_000L);
                    B.work(10_000_000L);
                }
            }, "worker-" + i);
            workers[i].start();
        }
        // blocks until the test closes our standard input (or dies, which closes it too)
        while (System.in.read() != -1) {
            // the input carries nothing; only its end matters
        }
        stopRequested = true;
        for (Thread t : workers) {
            t.join();
        }
    }

    static long cpuNow() {
        return CPU.getCurrentThreadCpuTime();
    }

    /** Spends {@code cpuNanos} of this thread's CPU in recursion. */
    public static final class A {
        private A() {
        }

        public static void work(long cpuNanos) {
            long until = cpuNow() + cpuNanos;
            while (cpuNow() < until) {
                sink += Fib.fib(20);
            }
        }
    }

    /** Spends {@code cpuNanos} of this thread's CPU exactly as {@link A#work} does. */
    public static final class B {
        private B() {
        }

        public static void work(long cpuNanos) {
            long until = cpuNow() + cpuNanos;
            while (cpuNow() < until) {
                sink += Fib.fib(20);
            }
        }
    }

    /** Tree recursion: a sample in fib has it on its stack many times. */
    public static final class Fib {
        private Fib() {
        }

        public static long fib(int n) {
            return n < 2 ? n : fib(n - 1) + fib(n - 2);
        }
    }
}
