package io.cctflow.servers;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.cctflow.servers.internal.ChildLogging;
import io.cctflow.servers.internal.Directories;
import io.cctflow.servers.internal.KafkaProcess;
import io.cctflow.servers.internal.LogTail;
import io.cctflow.servers.internal.Neo4jServerMain;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link Neo4jServer} in a child JVM with the current class path, so that it can be killed
 * like a real database process ({@code kill -9}: no shutdown, no flush, the store as the kill
 * left it) and started again on the same store and Bolt port, where Neo4j recovers from its
 * transaction log.
 *
 * <p>The home directory holds the store, Neo4j's {@code logs/debug.log} and {@value #LOG_FILE}
 * (the child's output, appended to on each start). The child stops when {@link #close()} is
 * called or when this JVM dies. No shutdown hook is registered. Thread-safe.
 */
public final class Neo4jProcess implements AutoCloseable {

    /** The child's standard output and error, in the home directory. */
    public static final String LOG_FILE = "neo4j-process.log";

    private static final Logger LOG = LoggerFactory.getLogger(Neo4jProcess.class);
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern READY = Pattern.compile(Pattern.quote(Neo4jServerMain.READY) + "bolt://[^:]+:(\\d+) ");
    private static final int LOG_TAIL_LINES = 40;

    private final Path homeDir;
    private final String maxHeap;
    private int boltPort;
    private Process process;
    private Duration startupTime;

    private Neo4jProcess(Path homeDir, String maxHeap) {
        this.homeDir = homeDir;
        this.maxHeap = maxHeap;
    }

    /**
     * Starts Neo4j in a child JVM ({@code -Xmx} {@code maxHeap}, e.g. {@code "1g"}) on the store in
     * {@code homeDir} (created if missing) with Bolt on a free port, and returns when it answers
     * over Bolt.
     *
     * @throws ServerStartException if the child exits or does not answer within 3 minutes
     */
    public static Neo4jProcess start(Path homeDir, String maxHeap) {
        Neo4jProcess neo4j = new Neo4jProcess(Directories.create(homeDir), maxHeap);
        neo4j.launch(0);
        return neo4j;
    }

    /** {@code bolt://127.0.0.1:port}; connect with {@code AuthTokens.none()}. */
    public String boltUri() {
        return "bolt://127.0.0.1:" + boltPort();
    }

    public synchronized int boltPort() {
        return boltPort;
    }

    public Path homeDir() {
        return homeDir;
    }

    /** The child's output: read it when something went wrong. */
    public Path logFile() {
        return homeDir.resolve(LOG_FILE);
    }

    /** Time of the latest start, from launching the child until it answered over Bolt. */
    public synchronized Duration startupTime() {
        return startupTime;
    }

    public synchronized long pid() {
        return process.pid();
    }

    public synchronized boolean isRunning() {
        return process.isAlive();
    }

    /** {@code kill -9} (SIGKILL): the database gets no chance to shut down. Returns when the process is gone. */
    public synchronized void kill() {
        long pid = process.pid();
        process.destroyForcibly();
        awaitExit(STOP_TIMEOUT);
        LOG.info("Neo4j (pid {}) on {} killed", pid, boltUri());
    }

    /** Stops the child with SIGTERM (a clean database shutdown), after 30 s with SIGKILL. */
    public synchronized void stop() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        if (!awaitExit(STOP_TIMEOUT)) {
            LOG.warn("Neo4j (pid {}) did not stop within {}; killing it", process.pid(), STOP_TIMEOUT);
            kill();
        }
    }

    /**
     * Starts the child again, on the same store and Bolt port, after {@link #kill()} or
     * {@link #stop()}; returns when it answers over Bolt (after recovery, if it was killed).
     *
     * @throws IllegalStateException if it is still running
     */
    public synchronized void restart() {
        if (process.isAlive()) {
            throw new IllegalStateException("Neo4j is still running (pid " + process.pid() + ")");
        }
        launch(boltPort);
    }

    /** {@link #stop()}. Idempotent. */
    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "Neo4jProcess[" + boltUri() + ", " + homeDir + "]";
    }

    private synchronized void launch(int port) {
        long startNanos = System.nanoTime();
        Path log = logFile();
        long logOffset = appendToLog("cctflow: " + Instant.now() + " starting Neo4j on "
                + (port == 0 ? "a free port" : "port " + port));
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx" + maxHeap);
        command.add("-XX:+ExitOnOutOfMemoryError");
        command.add("-Djava.awt.headless=true");
        command.add("-Djava.io.tmpdir=" + homeDir);
        command.addAll(Neo4jServer.RECOMMENDED_JVM_OPTIONS);
        command.addAll(ChildLogging.jvmOptions(homeDir));
        command.add("-cp");
        command.add(KafkaProcess.absoluteClassPath());
        command.add(Neo4jServerMain.class.getName());
        command.add(homeDir.toString());
        command.add(Integer.toString(port));
        try {
            process = new ProcessBuilder(command).directory(homeDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        } catch (IOException e) {
            throw new ServerStartException("Could not start the Neo4j child process (" + command.get(0) + "): " + e, e);
        }
        try {
            boltPort = awaitReady(logOffset, startNanos);
        } catch (RuntimeException e) {
            process.destroyForcibly();
            awaitExit(STOP_TIMEOUT);
            throw e;
        }
        startupTime = Duration.ofNanos(System.nanoTime() - startNanos);
        LOG.info("Neo4j ready on {} in {} ms, pid {}, home {}", boltUri(), startupTime.toMillis(), process.pid(),
                homeDir);
    }

    /** The Bolt port, once the child printed that it is ready after {@code logOffset} of the log. */
    private int awaitReady(long logOffset, long startNanos) {
        long deadline = startNanos + START_TIMEOUT.toNanos();
        try {
            while (true) {
                Matcher ready = READY.matcher(readFrom(logOffset));
                if (ready.find()) {
                    return Integer.parseInt(ready.group(1));
                }
                if (!process.isAlive()) {
                    throw new ServerStartException("Neo4j exited with code " + process.exitValue()
                            + " while starting; last lines of " + logFile() + ":\n" + LogTail.of(logFile(), LOG_TAIL_LINES));
                }
                if (System.nanoTime() > deadline) {
                    throw new ServerStartException("Neo4j did not answer within " + START_TIMEOUT + "; last lines of "
                            + logFile() + ":\n" + LogTail.of(logFile(), LOG_TAIL_LINES));
                }
                process.waitFor(100, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServerStartException("Interrupted while waiting for Neo4j to start", e);
        }
    }

    private boolean awaitExit(Duration timeout) {
        try {
            boolean exited = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            closeInput();
            return exited;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private void closeInput() {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // the child is gone, which closed the pipe
        }
    }

    /** Appends a line to the log and returns the offset after it. */
    private long appendToLog(String line) {
        try {
            Files.writeString(logFile(), line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            return Files.size(logFile());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + logFile(), e);
        }
    }

    private String readFrom(long offset) {
        try (RandomAccessFile in = new RandomAccessFile(logFile().toFile(), "r")) {
            byte[] bytes = new byte[(int) Math.max(0, Math.min(in.length() - offset, 1 << 20))];
            in.seek(offset);
            in.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + logFile(), e);
        }
    }
}
