package io.cctflow.standalone;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The demo's two deployments, as a canary, each {@link DemoProcess#INSTANCES} JVMs (instances):
 * {@link DemoProcess#VERSION} alone for {@link #FIRST_RUN},
 * then {@link DemoProcess#NEXT_VERSION}, whose {@code Shop.priceCart} does {@link
 * DemoProcess#SLOWDOWN} more work, beside it, both until closed. Comparing the two over the time
 * both run ({@link #compareQuery(String, Instant)}) finds that one method significantly slower and
 * nothing else: a newcomer's first comparison has a known answer.
 *
 * <p>Why side by side: run one after the other, the two deployments also differ by whatever the
 * machine did meanwhile, and the windows of each deployment cannot show that. On the shared
 * machine, {@code 1.1.0} started after {@code 1.0.0} had stopped gave {@code priceCart} (q = 2e-6)
 * and eight other methods significant, shares of 9-19 % moving by 6-15 % of themselves in both
 * directions (standalone/README.md); {@code DemoComparisonTest}, which runs them at once, had no
 * other method below q = 0.1 in the same hour.
 */
public final class DemoDeployments implements AutoCloseable {
    /**
     * Two minutes: 2,606 samples at the agent's default 20 ms on the busy shared machine (load
     * 11-16), which is why the demo samples every {@link DemoProcess#PERIOD}.
     */
    static final Duration FIRST_RUN = Duration.ofMinutes(2);
    /**
     * The canary's start-up left out of the comparison: its JVM starting and its JIT warming up
     * spend their samples elsewhere than a warm JVM does, a real difference of the two JVMs that
     * the first answers named beside {@code priceCart} (standalone/README.md).
     */
    static final Duration WARM_UP = Duration.ofSeconds(30);

    private final Thread runner;
    private final CountDownLatch nextStarted = new CountDownLatch(1);
    /** Every demo JVM started, closed in reverse order; guarded by {@code this}. */
    private final List<DemoProcess> processes = new ArrayList<>();
    private volatile Instant nextStart;
    private volatile boolean closed;

    private DemoDeployments(Path agentJar, String bootstrapServers, Path logFile, Consumer<String> progress)
            throws IOException {
        try {
            synchronized (this) {
                startDeployment(agentJar, bootstrapServers, logFile, DemoProcess.VERSION, 0);
            }
        } catch (IOException e) {
            close();
            throw e;
        }
        runner = new Thread(() -> {
            try {
                Thread.sleep(FIRST_RUN.toMillis()); // the first deployment's time alone, not a test wait
                synchronized (this) {
                    if (!closed) {
                        nextStart = Instant.now();
                        startDeployment(agentJar, bootstrapServers, logFile, DemoProcess.NEXT_VERSION,
                                DemoProcess.SLOWDOWN);
                        progress.accept("demo deployment " + DemoProcess.NEXT_VERSION + " started beside "
                                + DemoProcess.VERSION + " (a canary, " + DemoProcess.INSTANCES + " JVMs; "
                                + DemoProcess.SLOWED_METHOD + " does " + Math.round(DemoProcess.SLOWDOWN * 100)
                                + " % more work)");
                        nextStarted.countDown();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException e) {
                System.err.println("demo deployment " + DemoProcess.NEXT_VERSION + " did not start: " + e.getMessage());
            }
        }, "cctflow-demo-deployments");
        runner.setDaemon(true);
        runner.start();
    }

    /** Starts {@link DemoProcess#INSTANCES} JVMs of one deployment; the caller holds {@code this}. */
    private void startDeployment(Path agentJar, String bootstrapServers, Path logFile, String version,
            double slowdown) throws IOException {
        for (int i = 0; i < DemoProcess.INSTANCES; i++) {
            processes.add(DemoProcess.start(agentJar, bootstrapServers, logFile, version, 0, slowdown));
        }
    }

    /** @param progress told when the second deployment starts */
    public static DemoDeployments start(Path agentJar, String bootstrapServers, Path logFile, Consumer<String> progress)
            throws IOException {
        return new DemoDeployments(agentJar, bootstrapServers, logFile, progress);
    }

    /**
     * Waits until the second deployment has started.
     *
     * @return where the comparison starts ({@link #comparedFrom}), or null if it did not start
     *     within {@code timeout}
     */
    Instant awaitNextDeployment(Duration timeout) throws InterruptedException {
        return nextStarted.await(timeout.toMillis(), TimeUnit.MILLISECONDS) ? comparedFrom(nextStart) : null;
    }

    /** The first minute (a window's start) that begins {@link #WARM_UP} or more after the canary started. */
    static Instant comparedFrom(Instant canaryStart) {
        Instant warm = canaryStart.plus(WARM_UP);
        Instant minute = warm.truncatedTo(ChronoUnit.MINUTES);
        return minute.equals(warm) ? minute : minute.plus(1, ChronoUnit.MINUTES);
    }

    /** The comparison of the two deployments, method by method, on the query API at {@code base}. */
    public static String compareQuery(String base) {
        return base + "/api/v1/compare?service=" + DemoProcess.SERVICE + "&a.version=" + DemoProcess.VERSION
                + "&b.version=" + DemoProcess.NEXT_VERSION + "&top=10";
    }

    /** {@link #compareQuery(String)} from {@code from} on: the windows in which both deployments run. */
    static String compareQuery(String base, Instant from) {
        return compareQuery(base) + "&from=" + from;
    }

    @Override
    public void close() {
        List<DemoProcess> started;
        synchronized (this) {
            closed = true;
            started = new ArrayList<>(processes);
        }
        if (runner != null) {
            runner.interrupt();
        }
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).close();
        }
    }
}
