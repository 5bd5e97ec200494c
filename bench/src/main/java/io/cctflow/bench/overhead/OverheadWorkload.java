package io.cctflow.bench.overhead;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLongArray;

import jdk.jfr.FlightRecorder;
import jdk.jfr.RecordingState;

/**
 * The host JVM of the overhead benchmark (a child of {@link AgentOverheadBenchmark}): runs
 * {@link WorkloadOps} on N worker threads flat out, counts completed operations over a measured
 * interval after a warm-up, then prints one line:
 *
 * <pre>RESULT ops=&lt;n&gt; nanos=&lt;n&gt; cpuNanos=&lt;n&gt; heapAfterGc=&lt;bytes&gt; rss=&lt;bytes&gt; awaitMillis=&lt;n&gt; checksum=&lt;n&gt;</pre>
 *
 * <p>{@code nanos} is the measured wall time, {@code cpuNanos} the CPU time the whole process
 * (workers, agent, JFR, GC, JIT) used in it: on a shared machine the wall-clock rate depends on
 * how much CPU the others leave us, the work per CPU second much less.
 *
 * <p>{@code heapAfterGc} is the used heap after two {@code System.gc()} calls once the workers
 * have stopped: the workload itself keeps almost nothing alive, so the difference to a run without
 * agent is what the agent (and the JFR consumer it runs) keeps on the heap. {@code rss} is
 * {@code VmRSS} from {@code /proc/self/status} (0 where there is none).
 *
 * <p>Before it, a line {@code CPU workers=<ns> agent=<ns> jfr=<ns> jit=<ns> gc=<ns> other=<ns>}: the
 * CPU time of each kind of thread in the measured interval ({@link ThreadCpu}).
 *
 * <p>Arguments: {@code threads warmupMillis measureMillis [--await-jfr]}. With
 * {@code --await-jfr} the warm-up starts only once a JFR recording is running (the agent starts on
 * its own thread, and on a loaded machine that takes seconds: without the wait its start-up would
 * fall into the measurement, or the measurement would end before it sampled at all); the wait is
 * printed as {@code awaitMillis}. The workers run from the start either way.
 */
public final class OverheadWorkload {
    /** Counters of different threads are this many longs apart, so they share no cache line. */
    private static final int STRIDE = 16;

    /** Argument: wait for a running JFR recording before the warm-up. */
    static final String AWAIT_JFR = "--await-jfr";
    private static final long AWAIT_LIMIT_MILLIS = 120_000;

    private static volatile boolean running = true;

    private OverheadWorkload() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4 || (args.length == 4 && !args[3].equals(AWAIT_JFR))) {
            System.err.println("usage: OverheadWorkload <threads> <warmupMillis> <measureMillis> [" + AWAIT_JFR + "]");
            System.exit(2);
        }
        int threads = Integer.parseInt(args[0]);
        long warmupMillis = Long.parseLong(args[1]);
        long measureMillis = Long.parseLong(args[2]);

        // Load every class the measurement needs before the workers start: class loading in the
        // middle of the run can invalidate compiled code of the workload (class hierarchy changes,
        // e.g. a new Buffer subclass) and deoptimise it, in some configurations and not others.
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        String primed = ThreadCpu.format(ThreadCpu.snapshot().since(ThreadCpu.snapshot())) + os.getProcessCpuTime()
                + ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() + residentBytes();
        if (primed.isEmpty()) {
            throw new AssertionError("never: keeps the priming from being optimised away");
        }

        AtomicLongArray ops = new AtomicLongArray(threads * STRIDE);
        long[] checksums = new long[threads];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int slot = t;
            workers[t] = new Thread(() -> checksums[slot] = work(ops, slot * STRIDE, slot), "worker-" + (t + 1));
            workers[t].setDaemon(true);
            workers[t].start();
        }

        long awaitMillis = args.length == 4 ? awaitRecording() : 0;
        Thread.sleep(warmupMillis);
        long opsBefore = sum(ops, threads);
        ThreadCpu threadsBefore = ThreadCpu.snapshot();
        long cpuBefore = os.getProcessCpuTime();
        long start = System.nanoTime();
        Thread.sleep(measureMillis);
        long opsAfter = sum(ops, threads);
        long cpuAfter = os.getProcessCpuTime();
        long[] cpuByKind = ThreadCpu.snapshot().since(threadsBefore);
        long nanos = System.nanoTime() - start;

        running = false;
        long checksum = 0;
        for (int t = 0; t < threads; t++) {
            workers[t].join();
            checksum ^= checksums[t];
        }
        System.gc();
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.println("CPU " + ThreadCpu.format(cpuByKind));
        System.out.println("RESULT ops=" + (opsAfter - opsBefore) + " nanos=" + nanos + " cpuNanos=" + (cpuAfter - cpuBefore)
                + " heapAfterGc=" + heap
                + " rss=" + residentBytes() + " awaitMillis=" + awaitMillis + " checksum=" + checksum);
    }

    /**
     * Waits until some JFR recording runs; returns how long that took.
     *
     * @throws IllegalStateException if none runs within two minutes
     */
    private static long awaitRecording() throws InterruptedException {
        long start = System.nanoTime();
        // isInitialized() first: getFlightRecorder() would start JFR itself
        while (!(FlightRecorder.isInitialized() && FlightRecorder.getFlightRecorder().getRecordings().stream()
                .anyMatch(r -> r.getState() == RecordingState.RUNNING))) {
            if (System.nanoTime() - start > AWAIT_LIMIT_MILLIS * 1_000_000) {
                throw new IllegalStateException("no JFR recording started within " + AWAIT_LIMIT_MILLIS + " ms");
            }
            Thread.sleep(50);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }

    private static long work(AtomicLongArray ops, int index, int thread) {
        WorkloadOps work = new WorkloadOps();
        long checksum = 0;
        // each thread runs its own sequence of operations, so the threads' stacks differ
        long op = (long) thread << 40;
        long done = 0;
        while (running) {
            checksum += work.run(op++);
            ops.lazySet(index, ++done);
        }
        return checksum;
    }

    private static long sum(AtomicLongArray ops, int threads) {
        long total = 0;
        for (int t = 0; t < threads; t++) {
            total += ops.get(t * STRIDE);
        }
        return total;
    }

    private static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: no figure
        }
        return 0;
    }
}
