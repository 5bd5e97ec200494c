package io.cctflow.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

/**
 * A host application for {@link TransportIT}: keeps two threads busy until a stop file exists
 * (at most {@code maxSeconds}), then returns from {@code main} normally. The last line on stdout
 * is {@code workload done <iterations> at <epoch ms>}: iterations show the host made progress.
 *
 * <p>Arguments: stop file, max seconds. The busy time starts once the agent's flusher thread
 * exists and a JFR recording runs (at most 60 s, else exit code 2), as in {@link BusyWorkload};
 * then it prints the {@code jdk.ExecutionSample} settings of the running recordings, as JFR holds
 * them, for {@link AgentSettingsIT}.
 */
public final class StoppableWorkload {
    private StoppableWorkload() {
    }

    public static void main(String[] args) throws Exception {
        Path stopFile = Path.of(args[0]);
        long maxNanos = Long.parseLong(args[1]) * 1_000_000_000L;
        if (!awaitAgent(60_000)) {
            System.out.println("agent did not start within 60 s");
            System.exit(2);
        }
        System.out.println("agent running");
        printSamplingSettings();
        long deadline = System.nanoTime() + maxNanos;
        ExecutorService pool = Executors.newFixedThreadPool(1);
        Future<Long> background = pool.submit(() -> work(stopFile, deadline));
        long iterations = work(stopFile, deadline) + background.get();
        pool.shutdown();
        System.out.println("workload done " + iterations + " at " + System.currentTimeMillis());
    }

    private static boolean awaitAgent(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (System.nanoTime() < deadline) {
            boolean flusher = Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getName().equals("cctflow-flusher"));
            if (flusher && FlightRecorder.isInitialized()
                    && FlightRecorder.getFlightRecorder().getRecordings().stream()
                            .anyMatch(r -> r.getState() == RecordingState.RUNNING)) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }

    /**
     * One line per setting of {@code jdk.ExecutionSample} in each running recording, as JFR holds
     * it: {@code jfr setting <recording>: jdk.ExecutionSample#period=19000000 ns}.
     */
    private static void printSamplingSettings() {
        for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
            if (r.getState() == RecordingState.RUNNING) {
                r.getSettings().forEach((key, value) -> {
                    if (key.startsWith("jdk.ExecutionSample#")) {
                        System.out.println("jfr setting " + r.getName() + ": " + key + "=" + value);
                    }
                });
            }
        }
    }

    private static long work(Path stopFile, long deadlineNanos) {
        long iterations = 0;
        double sink = 0;
        while (System.nanoTime() < deadlineNanos) {
            for (int i = 0; i < 200; i++) {
                sink += recurse(10);
            }
            iterations++;
            if (Files.exists(stopFile)) {
                break;
            }
        }
        return sink > 0 ? iterations : -1;
    }

    private static double recurse(int depth) {
        if (depth == 0) {
            double s = 0;
            for (int i = 1; i < 500; i++) {
                s += Math.sqrt(i);
            }
            return s;
        }
        return recurse(depth - 1) + 1;
    }
}
