package io.cctflow.agent;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jdk.jfr.FlightRecorder;
import jdk.jfr.RecordingState;

/**
 * A host application for {@link AgentJarIT}: keeps two threads busy (main and a pool thread)
 * for the given milliseconds, then returns from {@code main} normally, so the JVM exits only if
 * no agent thread holds it. The last lines on stdout are {@code jmx domains [<the platform MBean
 * server's domains, sorted>]} and {@code workload done true at <epoch ms>}.
 *
 * <p>With {@code --await-agent} the busy time starts only once the agent's flusher thread exists
 * and a JFR recording runs (at most 60 s, else exit code 2): on a loaded 2-core machine the
 * agent's start-up competes with the workload for CPU, and a fixed duration would race it.
 *
 * <p>With {@code --await-agent-gone} the busy time starts only once the agent's start-up thread
 * has ended (at most 60 s, else exit code 2), for tests where the agent gives up at start (no
 * JFR): {@code premain} starts that thread before {@code main} runs, so this cannot race it.
 *
 * <p>A third argument, a file, ends the busy time early once that file exists (checked between
 * rounds of work, as {@link StoppableWorkload} does): a test that waits for what the agent logs
 * ends the run then, instead of sitting out a duration long enough for a loaded machine.
 *
 * <p>The system property {@value #DEPTH_PROPERTY} sets how deep the busy threads recurse
 * (default 12), for tests of truncated stacks.
 */
public final class BusyWorkload {
    private static final String FLUSHER_THREAD = "cctflow-flusher";
    private static final String SAMPLER_THREAD = "cctflow-sampler";
    /** System property: recursion depth of the busy threads. */
    static final String DEPTH_PROPERTY = "busy.depth";
    private static final int DEPTH = Integer.getInteger(DEPTH_PROPERTY, 12);

    private BusyWorkload() {
    }

    public static void main(String[] args) throws Exception {
        long millis = Long.parseLong(args[0]);
        if (args.length > 1 && args[1].equals("--await-agent") && !awaitAgent(60_000)) {
            System.out.println("agent did not start within 60 s");
            System.exit(2);
        }
        if (args.length > 1 && args[1].equals("--await-agent-gone") && !awaitAgentGone(60_000)) {
            System.out.println("agent start-up thread still running after 60 s");
            System.exit(2);
        }
        Path stopFile = args.length > 2 ? Path.of(args[2]) : null;
        long deadline = System.nanoTime() + millis * 1_000_000;
        ExecutorService pool = Executors.newFixedThreadPool(1);
        Future<Double> background = pool.submit(() -> work(deadline, stopFile));
        double sum = work(deadline, stopFile) + background.get();
        pool.shutdown();
        System.out.println("jmx domains " + new TreeSet<>(Arrays.asList(
                ManagementFactory.getPlatformMBeanServer().getDomains())));
        System.out.println("workload done " + (sum > 0) + " at " + System.currentTimeMillis());
    }

    private static boolean awaitAgent(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (System.nanoTime() < deadline) {
            // isInitialized() does not start JFR itself, which would pre-empt the agent's
            // stack-depth setting
            if (flusherRunning() && FlightRecorder.isInitialized()
                    && FlightRecorder.getFlightRecorder().getRecordings().stream()
                            .anyMatch(r -> r.getState() == RecordingState.RUNNING)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    private static boolean awaitAgentGone(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (System.nanoTime() < deadline) {
            if (!running(SAMPLER_THREAD)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    private static boolean flusherRunning() {
        return running(FLUSHER_THREAD);
    }

    private static boolean running(String threadName) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(threadName));
    }

    /** Busy until the deadline, or until {@code stopFile} (may be null) exists, looked for every 200 rounds. */
    private static double work(long deadlineNanos, Path stopFile) {
        double sum = 0;
        for (long round = 1; System.nanoTime() < deadlineNanos; round++) {
            sum += recurse(DEPTH);
            if (stopFile != null && round % 200 == 0 && Files.exists(stopFile)) {
                break;
            }
        }
        return sum;
    }

    private static double recurse(int depth) {
        if (depth == 0) {
            double s = 0;
            for (int i = 1; i < 2_000; i++) {
                s += Math.sqrt(i);
            }
            return s;
        }
        return recurse(depth - 1) + 1;
    }
}
