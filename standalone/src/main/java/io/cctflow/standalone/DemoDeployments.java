package io.cctflow.standalone;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The demo's two deployments in turn, on a daemon thread: {@link DemoProcess#VERSION} for {@link
 * #FIRST_RUN}, then {@link DemoProcess#NEXT_VERSION}, whose {@code Shop.priceCart} does {@link
 * DemoProcess#SLOWDOWN} more work, until closed. Comparing the two finds that one method
 * significantly slower and nothing else: a newcomer's first comparison has a known answer.
 */
public final class DemoDeployments implements AutoCloseable {
    /**
     * Two minutes: 2,606 samples at the agent's default 20 ms on the busy shared machine (load
     * 11-16), which is why the demo samples every {@link DemoProcess#PERIOD}.
     */
    static final Duration FIRST_RUN = Duration.ofMinutes(2);

    private final Thread runner;
    private final CountDownLatch nextStarted = new CountDownLatch(1);
    private volatile DemoProcess current;
    private volatile boolean closed;

    private DemoDeployments(Path agentJar, String bootstrapServers, Path logFile, Consumer<String> progress)
            throws IOException {
        current = DemoProcess.start(agentJar, bootstrapServers, logFile, DemoProcess.VERSION, FIRST_RUN.toSeconds(), 0);
        runner = new Thread(() -> {
            try {
                current.awaitExit();
                synchronized (this) {
                    if (!closed) {
                        current = DemoProcess.start(agentJar, bootstrapServers, logFile, DemoProcess.NEXT_VERSION, 0,
                                DemoProcess.SLOWDOWN);
                        progress.accept("demo deployment " + DemoProcess.NEXT_VERSION + " started (" + DemoProcess.SLOWED_METHOD
                                + " does " + Math.round(DemoProcess.SLOWDOWN * 100) + " % more work)");
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

    /** @param progress told when the second deployment starts */
    public static DemoDeployments start(Path agentJar, String bootstrapServers, Path logFile, Consumer<String> progress)
            throws IOException {
        return new DemoDeployments(agentJar, bootstrapServers, logFile, progress);
    }

    /** Waits until the second deployment has started; false if it did not within {@code timeout}. */
    boolean awaitNextDeployment(Duration timeout) throws InterruptedException {
        return nextStarted.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The comparison of the two deployments, method by method, on the query API at {@code base}. */
    public static String compareQuery(String base) {
        return base + "/api/v1/compare?service=" + DemoProcess.SERVICE + "&a.version=" + DemoProcess.VERSION
                + "&b.version=" + DemoProcess.NEXT_VERSION + "&top=10";
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        runner.interrupt();
        current.close();
    }
}
