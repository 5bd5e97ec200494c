package io.cctflow.standalone;

import io.cctflow.standalone.demo.DemoWorkload;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo JVM: {@link DemoWorkload} with the cctflow agent attached, as a separate process so the
 * agent profiles a JVM that is not ours. Its output goes to {@code demo.log} in the data directory.
 * The demo runs two deployments in turn ({@link DemoDeployments}): {@link #VERSION}, then
 * {@link #NEXT_VERSION} with {@link #SLOWDOWN} more work in {@code Shop.priceCart}.
 */
public final class DemoProcess implements AutoCloseable {
    public static final String SERVICE = "demo-shop";
    static final String VERSION = "1.0.0";
    /** The second deployment: the same shop with a planted regression. */
    static final String NEXT_VERSION = "1.1.0";
    /**
     * Extra work per item in {@code Shop.priceCart} in {@link #NEXT_VERSION}: 100 % (twice the
     * work), which raises its share of the samples from about 6 % to about 12 %. 10 % was not
     * significant after 2.5 min, nor 50 % after 5 min on a busy machine (see standalone/README.md).
     */
    static final double SLOWDOWN = 1.0;
    /**
     * The demo agent's sampling period: 5 ms instead of the default 20 ms, four times the samples,
     * so a comparison has enough of them within minutes even when the machine is busy.
     */
    static final String PERIOD = "5ms";
    /**
     * JVM options of the demo JVM besides the agent: the shop's methods are never inlined. JFR
     * attributes a sample in compiled code by the debug information nearest to the sampled
     * instruction; in a method compiled with its callees inlined, a sample in one callee's loop
     * (which has no safepoint poll, so no debug information of its own) can be charged to the next
     * inlined callee. Whether and when the JIT inlines differs from JVM to JVM: one run of
     * DemoComparisonTest charged most of {@code checkInventory}'s samples to {@code applyDiscounts}
     * (0.092 to 0.017 and 0.109 to 0.183, both q below 1e-5) in one of the two JVMs.
     */
    public static final List<String> JVM_OPTIONS = List.of("-XX:CompileCommand=quiet",
            "-XX:CompileCommand=dontinline,io.cctflow.standalone.demo.*::*");
    /**
     * JVMs per deployment, each its own instance: the comparison then takes the instances as its
     * replicates (query-service's {@code SideReplicates}), so what differs between two JVMs of the
     * same code (what the JIT compiled and how JFR attributes samples in it; stacks JFR walked only
     * part-way) is in its noise estimate. With one JVM a deployment its replicates were that JVM's
     * windows, which cannot show it: {@code Shop.stockOf}'s self time came out 2.1 % against 6.5 %
     * (q = 1e-8) between two JVMs of the same code, in about half the runs of DemoComparisonTest.
     */
    public static final int INSTANCES = 3;
    /**
     * Request threads per demo JVM: one, so both deployments together ({@value #INSTANCES} JVMs
     * each) keep six busy threads, as two JVMs of three did, on a 2-core laptop.
     */
    public static final int THREADS = 1;
    /** The method {@link #SLOWDOWN} makes slower. */
    static final String SLOWED_METHOD = "io.cctflow.standalone.demo.Shop.priceCart";

    private final Process process;

    private DemoProcess(Process process) {
        this.process = process;
    }

    /**
     * @param seconds how long the workload runs; 0 until closed
     * @param slowdown the planted regression of {@link DemoWorkload}; 0 for none
     */
    public static DemoProcess start(Path agentJar, String bootstrapServers, Path logFile, String version, long seconds,
            double slowdown) throws IOException {
        if (!Files.isRegularFile(agentJar)) {
            throw new IOException("agent jar not found at " + agentJar + "; build it with 'mvn -DskipTests package'"
                    + " or pass --agent-jar");
        }
        // no instance id: the agent's default (host-pid) makes every demo run a new instance
        String agentArgs = "bootstrap.servers=" + bootstrapServers + ",service=" + SERVICE + ",version=" + version
                + ",flush=5s,period=" + PERIOD + ",labels=env=demo";
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-XX:FlightRecorderOptions:stackdepth=256"));
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of(
                "-javaagent:" + agentJar.toAbsolutePath() + "=" + agentArgs,
                "-cp", System.getProperty("java.class.path"),
                DemoWorkload.class.getName(), Long.toString(seconds), Double.toString(slowdown),
                Integer.toString(THREADS)));
        File log = logFile.toFile();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        return new DemoProcess(process);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until the workload ends by itself (it was started with a duration). */
    void awaitExit() throws InterruptedException {
        process.waitFor();
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
