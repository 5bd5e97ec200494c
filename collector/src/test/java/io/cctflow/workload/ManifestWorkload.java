package io.cctflow.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * A host application for {@code ManifestIT}, outside the agent's package (the agent does not
 * fingerprint {@code io.cctflow.agent.}): once the agent's fingerprinting thread runs, it loads
 * its nested classes, keeps busy until a stop file exists (at most 100 s), and returns from
 * {@code main}. Its main class is loaded before the agent registers its class observer, the nested
 * ones after: both ways into the manifest are used. Last stdout line: {@code workload done <n>}.
 */
public final class ManifestWorkload {
    private ManifestWorkload() {
    }

    public static void main(String[] args) throws Exception {
        Path stopFile = Path.of(args[0]);
        if (!awaitThread("cctflow-manifest", 60_000)) {
            System.out.println("agent did not start within 60 s");
            System.exit(2);
        }
        System.out.println("agent running");
        List<IntUnaryOperator> steps = new ArrayList<>(List.of(new Doubler(), new Squarer()));
        long n = 0;
        long deadline = System.nanoTime() + 100_000_000_000L;
        while (!Files.exists(stopFile) && System.nanoTime() < deadline) {
            for (IntUnaryOperator step : steps) {
                n += 1 + step.applyAsInt((int) (n & 0xff));
            }
            Thread.sleep(5);
        }
        System.out.println("workload done " + n);
    }

    private static boolean awaitThread(String name, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        while (System.nanoTime() < deadline) {
            if (Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name))) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    /** Loaded after the agent started. */
    static final class Doubler implements IntUnaryOperator {
        @Override
        public int applyAsInt(int x) {
            return 2 * x;
        }
    }

    /** Loaded after the agent started. */
    static final class Squarer implements IntUnaryOperator {
        @Override
        public int applyAsInt(int x) {
            return x * x;
        }
    }
}
