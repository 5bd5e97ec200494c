package io.cctflow.servers.internal;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import io.cctflow.servers.ServerStartException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.Node;

/** Starts the Kafka child JVM and waits until it serves clients. */
public final class KafkaProcess {

    private static final int LOG_TAIL_LINES = 40;
    /** Our line in {@code kafka.log} before each start's own. */
    private static final String START_LINE = " starting Kafka: ";
    /** How the broker's log says a listener could not bind its port (the JDK's BindException message). */
    private static final String BIND_FAILURE = "Address already in use";

    private KafkaProcess() {
    }

    /**
     * Starts {@link KafkaBrokerMain} with our class path in {@code data}'s directory, output
     * appended to {@code kafka.log}, standard input a pipe the child watches. {@code format}:
     * format the storage first (a new data directory).
     */
    public static Process launch(KafkaDataDir data, boolean format, String maxHeap, List<String> jvmOptions) {
        return launch(data, format ? List.of(KafkaBrokerMain.FORMAT) : List.of(), maxHeap, jvmOptions);
    }

    /**
     * As {@link #launch(KafkaDataDir, boolean, String, List)}, with {@link KafkaBrokerMain}'s
     * options before the configuration file ({@code --format-cluster ID} for a node of a cluster
     * of several).
     */
    public static Process launch(KafkaDataDir data, List<String> brokerOptions, String maxHeap,
            List<String> jvmOptions) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + maxHeap);
        command.add("-XX:+ExitOnOutOfMemoryError");
        // C1 only: halves the CPU a broker start costs (7 s to 4 s measured), which on a 2-core
        // machine is what Neo4j, starting at the same time, waits for; a local broker is I/O
        // bound anyway. A later -XX:TieredStopAtLevel=4 in jvmOptions restores the full JIT.
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-Djava.awt.headless=true");
        command.addAll(ChildLogging.jvmOptions(data.path()));
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(absoluteClassPath());
        command.add(KafkaBrokerMain.class.getName());
        command.addAll(brokerOptions);
        command.add(data.configFile().toString());
        data.appendToLog("cctflow: " + Instant.now() + START_LINE
                + String.join(" ", command.subList(command.indexOf(KafkaBrokerMain.class.getName()), command.size())));
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(data.path().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(data.logFile().toFile()));
        try {
            return builder.start();
        } catch (IOException e) {
            throw new ServerStartException("Could not start the Kafka child process (" + command.get(0) + "): " + e, e);
        }
    }

    /**
     * Our class path with every entry made absolute, because the child runs in the data
     * directory. Under {@code java -jar} this is the jar alone, and the child honours its
     * manifest {@code Class-Path} just as we do.
     */
    public static String absoluteClassPath() {
        StringJoiner joined = new StringJoiner(File.pathSeparator);
        for (String entry : System.getProperty("java.class.path").split(Pattern.quote(File.pathSeparator), -1)) {
            // File, not Path: a wildcard entry such as lib/* is not a valid Path on every OS
            joined.add(new File(entry.isEmpty() ? "." : entry).getAbsolutePath());
        }
        return joined.toString();
    }

    /**
     * Returns when the broker on {@code brokerPort} answers {@code describeCluster} with itself.
     *
     * @throws ServerStartException if the process exits or {@code timeout} (counted from
     *                              {@code startNanos}) passes; the message ends with the log's tail
     */
    public static void awaitReady(Process process, KafkaDataDir data, int brokerPort, long startNanos,
                                  Duration timeout) {
        long deadline = startNanos + timeout.toNanos();
        String bootstrap = Ports.LOOPBACK + ":" + brokerPort;
        try {
            // plain TCP first: an admin client polling a closed port logs a warning per attempt
            awaitListening(process, data, brokerPort, deadline, timeout);
            awaitClusterAnswer(process, data, bootstrap, deadline, timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServerStartException("Interrupted while waiting for Kafka on " + bootstrap, e);
        }
    }

    private static void awaitListening(Process process, KafkaDataDir data, int port, long deadline, Duration timeout)
            throws InterruptedException {
        while (true) {
            checkAlive(process, data);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(Ports.LOOPBACK, port), 500);
                return;
            } catch (IOException e) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new ServerStartException("Kafka did not listen on " + Ports.LOOPBACK + ":" + port + " within "
                        + timeout + "; last lines of " + data.logFile() + ":\n" + LogTail.of(data.logFile(), LOG_TAIL_LINES));
            }
            process.waitFor(100, TimeUnit.MILLISECONDS);
        }
    }

    private static void awaitClusterAnswer(Process process, KafkaDataDir data, String bootstrap, long deadline,
                                           Duration timeout) throws InterruptedException {
        Throwable lastError = null;
        try (Admin admin = Admin.create(Topics.adminProperties(bootstrap, "cctflow-kafka-ready"))) {
            while (true) {
                checkAlive(process, data);
                if (System.nanoTime() > deadline) {
                    throw new ServerStartException("Kafka did not answer on " + bootstrap + " within " + timeout
                            + " (last error: " + lastError + "); last lines of " + data.logFile() + ":\n"
                            + LogTail.of(data.logFile(), LOG_TAIL_LINES));
                }
                long attemptNanos = System.nanoTime();
                try {
                    Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(1000))
                            .nodes().get();
                    if (!nodes.isEmpty()) {
                        return;
                    }
                } catch (ExecutionException e) {
                    lastError = e.getCause();
                }
                // an attempt usually waits up to its 1 s timeout; if it failed at once, pause
                // (while watching the process) so the loop does not spin
                long spentMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - attemptNanos);
                if (spentMillis < 100) {
                    process.waitFor(100 - spentMillis, TimeUnit.MILLISECONDS);
                }
            }
        }
    }

    /** What {@code kafka.log} holds since the last start's line ({@link #launch}), or "" if unreadable. */
    private static String thisStartLog(KafkaDataDir data) {
        try {
            String log = Files.readString(data.logFile(), StandardCharsets.UTF_8);
            return log.substring(Math.max(0, log.lastIndexOf(START_LINE)));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * @throws PortTakenException   if the process exited because a port was in use
     * @throws ServerStartException if it exited for another reason
     */
    private static void checkAlive(Process process, KafkaDataDir data) {
        if (process.isAlive()) {
            return;
        }
        String tail = "; last lines of " + data.logFile() + ":\n" + LogTail.of(data.logFile(), LOG_TAIL_LINES);
        String exited = "Kafka exited with code " + process.exitValue() + " while starting";
        String bindFailure = thisStartLog(data).lines().filter(line -> line.contains(BIND_FAILURE)).findFirst()
                .orElse(null);
        throw bindFailure != null ? new PortTakenException(exited + ", a port taken: " + bindFailure.strip() + tail)
                : new ServerStartException(exited + tail);
    }
}
