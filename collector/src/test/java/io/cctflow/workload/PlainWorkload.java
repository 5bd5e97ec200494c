package io.cctflow.workload;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongUnaryOperator;

/**
 * A host application for {@code AgentJarIT}'s runs without JFR, outside the agent's package, so
 * that the agent would fingerprint its classes (the default {@code manifest.exclude} skips
 * {@code io.cctflow.agent.}) if it ever started code fingerprints. It uses no JFR and no
 * management API, so it also runs in a runtime limited to {@code java.base}.
 *
 * <p>Argument: busy milliseconds. The busy time starts once the agent's start-up thread has ended
 * (at most 60 s, else exit code 2), for tests where the agent gives up at start: {@code premain}
 * starts that thread before {@code main} runs, so this cannot race it. Then a class is loaded (a
 * class an agent that observed class loading would see), main and a pool thread keep busy, and
 * {@code main} returns normally, so the JVM exits only if no agent thread holds it. The last line
 * on stdout is {@code workload done true at <epoch ms>}.
 */
public final class PlainWorkload {
    private static final String AGENT_THREAD = "cctflow-sampler";

    private PlainWorkload() {
    }

    public static void main(String[] args) throws Exception {
        long millis = Long.parseLong(args[0]);
        if (!awaitThreadGone(AGENT_THREAD, 60_000)) {
            System.out.println("agent start-up thread still running after 60 s");
            System.exit(2);
        }
        LongUnaryOperator step = new Step();
        long deadline = System.nanoTime() + millis * 1_000_000;
        ExecutorService pool = Executors.newFixedThreadPool(1);
        Future<Long> background = pool.submit(() -> work(step, deadline));
        long sum = work(step, deadline) + background.get();
        pool.shutdown();
        System.out.println("workload done " + (sum != 0) + " at " + System.currentTimeMillis());
    }

    /** Waits, at most {@code timeoutMillis}, for the thread named {@code name} to end, if there is one. */
    private static boolean awaitThreadGone(String name, long timeoutMillis) throws InterruptedException {
        Thread thread = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name))
                .findFirst().orElse(null);
        if (thread == null) {
            return true;
        }
        thread.join(timeoutMillis);
        return !thread.isAlive();
    }

    private static long work(LongUnaryOperator step, long deadlineNanos) {
        long x = 1;
        while (System.nanoTime() < deadlineNanos) {
            for (int i = 0; i < 10_000; i++) {
                x = step.applyAsLong(x);
            }
        }
        return x | 1;
    }

    /** Loaded after the agent's start-up ended. */
    static final class Step implements LongUnaryOperator {
        @Override
        public long applyAsLong(long x) {
            return x * 6364136223846793005L + 1442695040888963407L;
        }
    }
}
