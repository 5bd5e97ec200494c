package io.cctflow.agent.transport;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.log.AgentLog;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.core.ExecutionId;
import io.cctflow.schema.AgentStats;

/**
 * Sends or deletes the sample batches that dead predecessors left in the spill root. With the
 * default instance id ({@code <host>-<pid>}) a restarted JVM is another execution with another
 * spill directory, so nothing else would ever look at its predecessor's.
 *
 * <p>At start one daemon thread, {@value #THREAD_NAME}, looks at every sibling directory of this
 * run's whose {@link SpillOwner} holds sample batches of the same service (any version). A
 * directory whose lock ({@link SpillDirectory#lock}) a live process holds is left alone; the
 * others are taken one at a time: locked, their partial files deleted and counted, their batches
 * beyond {@code spill.max} deleted oldest first and counted as dropped, the rest sent oldest first
 * under the predecessor's own execution key, as they were encoded (so their execution and sequence
 * are the original ones and the job's de-duplication holds), each file deleted once the broker
 * acknowledged it, and the emptied directory deleted. What is not sent when the agent stops stays
 * in its directory for the next run. Directories of agents older than the lock (no owner file)
 * are left alone.
 *
 * <p>Never throws into the host: every failure is logged and counted ({@link #failures()}).
 * Thread-safe; {@link #close} is idempotent.
 */
public final class OrphanedSpills {
    /** Name of the thread that adopts directories. */
    public static final String THREAD_NAME = "cctflow-spill-adopter";
    private static final long WAIT_MILLIS = 1_000;
    private static final Duration SENDER_CLOSE = Duration.ofSeconds(2);

    private final KafkaBatchSender through;
    private final String topic;
    private final Path root;
    private final Path own;
    private final String service;
    private final long maxMemoryBytes;
    private final long maxSpillBytes;
    private final AgentCounters counters = new AgentCounters();
    private final RateLimitedLog log = RateLimitedLog.perMinute();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicInteger adopted = new AtomicInteger();
    private final AtomicInteger leftAlone = new AtomicInteger();
    private final AtomicInteger failures = new AtomicInteger();
    private final Thread thread;

    private OrphanedSpills(KafkaBatchSender through, String topic, Path ownDirectory, String service,
            long maxMemoryBytes, long maxSpillBytes) {
        this.through = through;
        this.topic = topic;
        this.own = ownDirectory.toAbsolutePath().normalize();
        this.root = own.getParent();
        this.service = service;
        this.maxMemoryBytes = maxMemoryBytes;
        this.maxSpillBytes = maxSpillBytes;
        this.thread = new Thread(this::run, THREAD_NAME);
        thread.setDaemon(true);
    }

    /**
     * Starts adopting the dead predecessors' directories next to {@code ownDirectory} (this run's
     * spill directory of sample batches), sending through {@code through}'s producer to {@code topic}.
     */
    public static OrphanedSpills start(KafkaBatchSender through, String topic, Path ownDirectory, String service,
            long maxMemoryBytes, long maxSpillBytes) {
        OrphanedSpills o = new OrphanedSpills(through, topic, ownDirectory, service, maxMemoryBytes, maxSpillBytes);
        o.thread.start();
        return o;
    }

    private void run() {
        try {
            for (Path dir : candidates()) {
                if (stopped.get()) {
                    return;
                }
                adopt(dir);
            }
        } catch (Throwable t) {
            failures.incrementAndGet();
            AgentLog.warn("looking for spill directories of earlier runs in " + root + " failed", t);
        }
        AgentStats s = counters.snapshot();
        if (adopted.get() + leftAlone.get() + failures.get() > 0) {
            AgentLog.info("spill directories of earlier runs in " + root + ": " + adopted.get() + " emptied ("
                    + s.getBatchesSent() + " batch(es) sent, " + s.getBatchesDropped() + " dropped), "
                    + leftAlone.get() + " left to live agents, " + failures.get() + " failure(s)");
        }
    }

    /** Sibling directories whose owner held sample batches of this service; sorted. */
    List<Path> candidates() throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, Files::isDirectory)) {
            for (Path dir : dirs) {
                if (!dir.toAbsolutePath().normalize().equals(own) && ownedByThisService(dir)) {
                    out.add(dir);
                }
            }
        }
        Collections.sort(out);
        return out;
    }

    private boolean ownedByThisService(Path dir) {
        return SpillOwner.readFrom(dir).filter(o -> o.kind().equals(SendQueue.BATCHES)).map(o -> {
            try {
                return ExecutionId.fromKey(o.recordKey()).service().equals(service);
            } catch (RuntimeException e) {
                return false;
            }
        }).orElse(false);
    }

    private void adopt(Path path) {
        SpillDirectory dir = SpillDirectory.existing(path);
        KafkaBatchSender sender = null;
        try {
            if (!dir.lock()) {
                leftAlone.incrementAndGet();
                return;
            }
            SpillOwner owner = SpillOwner.readFrom(path).orElseThrow(() -> new IOException("no owner file"));
            SendQueue queue = SendQueue.adopting(dir, maxMemoryBytes, maxSpillBytes, counters, log, System::nanoTime);
            int found = queue.size();
            sender = through.sharingProducer(topic, owner.recordKey(), queue, counters, THREAD_NAME + "-send");
            sender.start();
            while (!queue.isEmpty() && !stopped.get()) {
                queue.awaitDrained(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS), WAIT_MILLIS);
            }
            sender.close(SENDER_CLOSE); // spills what is left back into the directory and unlocks it
            sender = null;
            if (queue.isEmpty() && dir.lock()) {
                dir.deleteAndUnlock();
                adopted.incrementAndGet();
                AgentLog.info("sent " + found + " batch(es) that an earlier run (" + owner.recordKey().replace('\u001f', '/')
                        + ") left in " + path + ", and deleted it");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped.set(true);
        } catch (IOException | RuntimeException e) {
            failures.incrementAndGet();
            AgentLog.warn("could not adopt the spill directory " + path + " of an earlier run; left for the next run", e);
        } finally {
            if (sender != null) {
                sender.close(SENDER_CLOSE);
            }
            dir.unlock();
        }
    }

    /** Stops adopting (what is not sent stays for the next run); waits up to {@code budget}. Idempotent. */
    public void close(Duration budget) {
        stopped.set(true);
        try {
            thread.join(Math.max(1, budget.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether it has looked at every directory (for tests and the log). */
    boolean isDone() {
        return !thread.isAlive();
    }

    /** Sent and dropped batches of adopted directories. */
    public AgentStats counters() {
        return counters.snapshot();
    }

    /** Directories emptied and deleted. */
    public int adopted() {
        return adopted.get();
    }

    /** Directories left alone because a live process holds their lock. */
    public int leftAlone() {
        return leftAlone.get();
    }

    /** Failures (each logged); the directory is left for the next run. */
    public int failures() {
        return failures.get();
    }
}
