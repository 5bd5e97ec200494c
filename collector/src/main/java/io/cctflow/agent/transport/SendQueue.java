package io.cctflow.agent.transport;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.log.AgentLog;
import io.cctflow.agent.log.RateLimitedLog;

/**
 * The agent's bounded queue of encoded batches waiting for Kafka, oldest first, optionally
 * backed by a {@link SpillDirectory}.
 *
 * <p>Layout: the <em>head</em> (the batch being sent, kept until it is acknowledged or given up
 * for good), then spilled batches, then batches in memory; every batch in that order is older
 * than the next, so sending head after head preserves sequence order.
 *
 * <p>Bounds and drop policy: {@link #offer} never blocks and never does I/O (the flusher hands a
 * batch over in O(1), amortised). Without a spill directory, when the batches in memory exceed
 * {@code maxMemoryBytes} the oldest are dropped and counted ({@code batchesDropped},
 * {@code bytesDropped}); the newest batch is always kept, even if it alone exceeds the bound.
 * With a spill directory the sender thread moves the oldest batches in memory to disk
 * ({@link #spillOverflow}); offer drops only if memory reaches twice the bound (the disk is slower
 * than the flusher). The spill directory is bounded by {@code maxSpillBytes}: the oldest spilled
 * batch is dropped and counted to make room. Without spilling the head counts as the oldest batch
 * in memory, but once the producer accepted it, it is never dropped for room: it may already be
 * with the broker.
 *
 * <p>Thread safety: {@link #offer} may be called from any thread; {@link #take},
 * {@link #payload}, {@link #acknowledge}, {@link #dropHead}, {@link #spillOverflow} and
 * {@link #spillAll} belong to one sender thread. File I/O happens outside the lock.
 */
public final class SendQueue {
    private final long maxMemoryBytes;
    private final SpillDirectory spill;
    private final long maxSpillBytes;
    private final long runId;
    private final AgentCounters counters;
    private final RateLimitedLog log;
    private final LongSupplier nanoClock;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition headRemoved = lock.newCondition();
    // guarded by lock
    private final ArrayDeque<QueuedBatch> disk = new ArrayDeque<>();
    private final ArrayDeque<QueuedBatch> memory = new ArrayDeque<>();
    private QueuedBatch head;
    /** Taken from memory by spillOverflow and not yet on disk; counted in memory. */
    private int spilling;
    private long memoryBytes;
    private long spilledBytes;
    private long headBytes;
    private long removedHeads;
    /** Set by {@link #stopWaiting}: {@link #take} no longer waits. */
    private boolean stopWaiting;

    private SendQueue(long maxMemoryBytes, SpillDirectory spill, long maxSpillBytes, long runId,
            AgentCounters counters, RateLimitedLog log, LongSupplier nanoClock) {
        this.maxMemoryBytes = maxMemoryBytes;
        this.spill = spill;
        this.maxSpillBytes = maxSpillBytes;
        this.runId = runId;
        this.counters = counters;
        this.log = log;
        this.nanoClock = nanoClock;
    }

    /** A queue held in memory only. */
    public static SendQueue inMemory(long maxMemoryBytes, AgentCounters counters, RateLimitedLog log,
            LongSupplier nanoClock) {
        return new SendQueue(maxMemoryBytes, null, 0, 0, counters, log, nanoClock);
    }

    /**
     * A queue that spills to {@code spillRoot}, in the subdirectory of {@code executionKey}, and
     * starts with the batches a previous run of the same execution left there (oldest first;
     * beyond {@code maxSpillBytes} the oldest are deleted and counted as dropped).
     *
     * @param runId orders this run's spill files after those of earlier runs: the start time in
     *     epoch milliseconds
     * @throws IOException if the directory cannot be created or listed
     */
    public static SendQueue withSpill(long maxMemoryBytes, Path spillRoot, String executionKey,
            long maxSpillBytes, long runId, AgentCounters counters, RateLimitedLog log,
            LongSupplier nanoClock) throws IOException {
        return withSpill(maxMemoryBytes, spillRoot, executionKey, maxSpillBytes, runId, counters, log, nanoClock,
                BATCHES);
    }

    /**
     * As above, for records of kind {@code what}: the directory is locked for this run (until
     * {@link #releaseSpillDirectory}) and records its owner ({@link SpillOwner}: {@code what} and
     * {@code executionKey}), so a later run of the same service can tell it from those of live
     * agents and adopt it ({@link OrphanedSpills}). A directory another live agent holds is used
     * anyway, with a warning (two JVMs configured with the same instance id).
     */
    static SendQueue withSpill(long maxMemoryBytes, Path spillRoot, String executionKey,
            long maxSpillBytes, long runId, AgentCounters counters, RateLimitedLog log,
            LongSupplier nanoClock, String what) throws IOException {
        SpillDirectory dir = SpillDirectory.forExecution(spillRoot, executionKey);
        if (!dir.lock()) {
            AgentLog.warn("spill directory " + dir.path() + " is in use by another live agent with the same"
                    + " service, version and instance; sharing it");
        }
        new SpillOwner(what, executionKey).writeTo(dir.path());
        SendQueue queue = new SendQueue(maxMemoryBytes, dir, maxSpillBytes, runId, counters, log,
                nanoClock);
        queue.load(dir.list());
        queue.countPartials();
        return queue;
    }

    /**
     * A queue over the spill directory of a dead run ({@link OrphanedSpills}), which this process
     * has locked: its batches, oldest first, beyond {@code maxSpillBytes} the oldest deleted and
     * counted as dropped, and its partial files deleted and counted.
     */
    static SendQueue adopting(SpillDirectory dir, long maxMemoryBytes, long maxSpillBytes, AgentCounters counters,
            RateLimitedLog log, LongSupplier nanoClock) throws IOException {
        SendQueue queue = new SendQueue(maxMemoryBytes, dir, maxSpillBytes, 0, counters, log, nanoClock);
        queue.load(dir.list());
        queue.countPartials();
        return queue;
    }

    /** The kind of the agent's sample batches in spill directories and messages. */
    public static final String BATCHES = "batch(es)";

    /**
     * Partial files of a run that died while spilling: their batches are lost, counted as dropped
     * here (a failed write in a live run deletes its partial file and counts the batch itself).
     */
    private void countPartials() {
        int n = spill.partialsRemoved();
        if (n > 0) {
            counters.batchDropped(spill.partialBytesRemoved());
            for (int i = 1; i < n; i++) {
                counters.batchDropped(0);
            }
            AgentLog.warn("deleted " + n + " partial spill file(s) (" + spill.partialBytesRemoved()
                    + " bytes) of a run that stopped while writing them, in " + spill.path()
                    + "; counted as dropped batches");
        }
    }

    /** Gives up this run's lock on its spill directory (after {@link #spillAll}); idempotent. */
    void releaseSpillDirectory() {
        if (spill != null) {
            spill.unlock();
        }
    }

    /** The spill directory's root, or null when spilling is off. */
    Path spillRoot() {
        return spill == null ? null : spill.path().getParent();
    }

    /**
     * The agent's queue for one kind of record: spilling to {@code spillRoot} (subdirectory of
     * {@code executionKey}) when it is set and usable, else in memory only (with a warning naming
     * the directory). Says at start-up how many {@code what} an earlier run left to send first.
     *
     * @param what the records in messages, plural ("batches", "manifests")
     */
    public static SendQueue open(long maxMemoryBytes, Optional<Path> spillRoot, String executionKey,
            long maxSpillBytes, String what, AgentCounters counters) {
        RateLimitedLog log = RateLimitedLog.perMinute();
        if (spillRoot.isPresent()) {
            try {
                SendQueue queue = withSpill(maxMemoryBytes, spillRoot.get(), executionKey,
                        maxSpillBytes, System.currentTimeMillis(), counters, log, System::nanoTime, what);
                if (!queue.isEmpty()) {
                    AgentLog.info(queue.size() + " " + what + " spilled by an earlier run of this "
                            + "execution will be sent first, from " + queue.spillDirectory());
                }
                return queue;
            } catch (IOException | RuntimeException e) {
                AgentLog.warn("cannot use spill directory " + spillRoot.get() + " for " + what
                        + "; buffering in memory only", e);
            }
        }
        return inMemory(maxMemoryBytes, counters, log, System::nanoTime);
    }

    private void load(List<Path> files) {
        List<Path> delete = new ArrayList<>();
        lock.lock();
        try {
            long now = nanoClock.getAsLong();
            for (Path file : files) {
                QueuedBatch b = new QueuedBatch(sequenceOf(file), SpillDirectory.payloadSize(file), now,
                        0, null, file);
                disk.addLast(b);
                spilledBytes += b.size;
            }
            makeRoomOnDisk(0, delete);
            updateGauges();
        } finally {
            lock.unlock();
        }
        deleteAll(delete);
    }

    private static long sequenceOf(Path file) {
        String name = file.getFileName().toString();
        try {
            return Long.parseLong(name.substring(name.indexOf('-') + 1,
                    name.length() - SpillDirectory.SUFFIX.length()));
        } catch (RuntimeException e) {
            return -1; // only used in messages; reading the file decides whether it is usable
        }
    }

    /** The directory spill files go to, or null when spilling is off. */
    public Path spillDirectory() {
        return spill == null ? null : spill.path();
    }

    /** Appends a batch. Never blocks on I/O; may drop the oldest batches in memory (counted). */
    public void offer(long sequence, byte[] bytes) {
        QueuedBatch lastDropped = null;
        int dropped = 0;
        lock.lock();
        try {
            memory.addLast(new QueuedBatch(sequence, bytes.length, nanoClock.getAsLong(), runId, bytes,
                    null));
            memoryBytes += bytes.length;
            long hardBound = spill == null ? maxMemoryBytes : 2 * maxMemoryBytes;
            // with spilling the head is not counted: the sender holds it, and disk takes the rest
            while (memoryBytes + (spill == null ? headMemoryBytes() : 0) > hardBound) {
                if (headDroppable()) {
                    lastDropped = head;
                    head = null;
                    headBytes = 0;
                } else if (memory.size() > 1) {
                    lastDropped = memory.pollFirst();
                    memoryBytes -= lastDropped.size;
                } else {
                    break; // the newest batch is always kept
                }
                counters.batchDropped(lastDropped.size);
                dropped++;
            }
            updateGauges();
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
        if (dropped > 0) {
            // outside the lock: a slow stderr must not stall the flusher's next offer
            log.warn(dropped + " batch(es) up to " + lastDropped + " dropped: the send buffer ("
                    + maxMemoryBytes + " bytes) is full while Kafka is unreachable");
        }
    }

    // caller holds lock
    private long headMemoryBytes() {
        return head != null && head.file == null ? head.size : 0;
    }

    // caller holds lock: a head in memory the producer never accepted and is not handling now
    private boolean headDroppable() {
        return spill == null && head != null && head.file == null && !head.sending && !head.accepted;
    }

    /**
     * The batch to send next: the head if it is still unacknowledged (a retry), else the oldest
     * batch, which becomes the head. Waits up to {@code timeout} for one, or until
     * {@link #stopWaiting}.
     *
     * @return the head, or null if the queue stayed empty
     */
    QueuedBatch take(long timeout, TimeUnit unit) throws InterruptedException {
        lock.lock();
        try {
            long nanos = unit.toNanos(timeout);
            while (head == null) {
                QueuedBatch next = disk.pollFirst();
                if (next == null) {
                    next = memory.pollFirst();
                    if (next != null) {
                        memoryBytes -= next.size;
                    }
                } else {
                    spilledBytes -= next.size;
                }
                if (next != null) {
                    head = next;
                    headBytes = next.size;
                    break;
                }
                if (nanos <= 0 || stopWaiting) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            head.sending = true;
            return head;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Makes a waiting {@link #take} return, and every later one return at once when the queue is
     * empty: for closing, so the sender need not wake up periodically to notice it. Any thread.
     */
    public void stopWaiting() {
        lock.lock();
        try {
            stopWaiting = true;
            notEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The sender will try the head again later. {@code accepted}: the producer had accepted it,
     * so from now on it is never dropped for room.
     */
    void retryLater(QueuedBatch batch, boolean accepted) {
        lock.lock();
        try {
            batch.sending = false;
            batch.accepted |= accepted;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The head's payload, read back from its spill file if needed. A file that cannot be read or
     * is damaged is reported, deleted, and its batch dropped and counted.
     *
     * @return the payload, or null if the head was dropped
     */
    byte[] payload(QueuedBatch batch) {
        if (batch.bytes != null) {
            return batch.bytes;
        }
        try {
            byte[] bytes = SpillDirectory.read(batch.file);
            batch.bytes = bytes;
            return bytes;
        } catch (IOException | RuntimeException e) {
            log.warn("skipping spilled " + batch, e);
            dropHead(batch, "its spill file is unreadable");
            return null;
        }
    }

    /** The broker acknowledged the head: removes it and counts it as sent. */
    void acknowledge(QueuedBatch batch) {
        long latencyMillis = TimeUnit.NANOSECONDS.toMillis(nanoClock.getAsLong() - batch.queuedNanos);
        counters.batchSent(batch.size, Math.max(0, latencyMillis));
        removeHead(batch);
    }

    /** Gives the head up for good (the broker refused it, or it cannot be read); counts it dropped. */
    void dropHead(QueuedBatch batch, String reason) {
        countDrop(batch, reason);
        removeHead(batch);
    }

    private void removeHead(QueuedBatch batch) {
        Path file;
        lock.lock();
        try {
            if (head != batch) {
                throw new IllegalStateException(batch + " is not the head");
            }
            head = null;
            headBytes = 0;
            removedHeads++;
            file = batch.file;
            updateGauges();
            headRemoved.signalAll();
        } finally {
            lock.unlock();
        }
        if (file != null && !SpillDirectory.delete(file)) {
            log.warn("could not delete spill file " + file + "; its batch may be sent again by the next run");
        }
    }

    /**
     * Moves the oldest batches in memory to the spill directory until memory is within its
     * bound. Does nothing without a spill directory. Sender thread only.
     */
    void spillOverflow() {
        if (spill == null) {
            return;
        }
        while (true) {
            QueuedBatch victim;
            lock.lock();
            try {
                if (memoryBytes <= maxMemoryBytes || memory.isEmpty()) {
                    return;
                }
                victim = memory.pollFirst();
            } finally {
                lock.unlock();
            }
            spillOne(victim);
        }
    }

    /**
     * Writes the head (unless acknowledged or already on disk) and every batch in memory to the
     * spill directory, oldest first, so the next run sends them. Without a spill directory, or
     * once {@code deadlineNanos} (on the queue's clock) has passed, the rest are dropped and
     * counted. For shutdown, after the sender thread stopped.
     *
     * @return how many batches were spilled
     */
    int spillAll(long deadlineNanos) {
        List<QueuedBatch> rest = new ArrayList<>();
        lock.lock();
        try {
            if (head != null && head.file == null) {
                rest.add(head);
                memoryBytes += head.size; // spillOne takes it out of memory again
            } else if (head != null) {
                // read back from its file for sending: the file is still there, and first in line
                head.bytes = null;
                disk.addFirst(head);
                spilledBytes += head.size;
            }
            head = null;
            headBytes = 0;
            rest.addAll(memory);
            memory.clear();
        } finally {
            lock.unlock();
        }
        int spilled = 0;
        for (QueuedBatch b : rest) {
            if (spill == null || nanoClock.getAsLong() - deadlineNanos >= 0) {
                lock.lock();
                try {
                    memoryBytes -= b.size;
                    countDrop(b, spill == null ? "the agent stopped before it was sent"
                            : "the agent stopped before it was spilled");
                    updateGauges();
                } finally {
                    lock.unlock();
                }
            } else if (spillOne(b)) {
                spilled++;
            }
        }
        return spilled;
    }

    /** Writes one batch taken out of memory (still counted there) to disk; true if it is there. */
    private boolean spillOne(QueuedBatch victim) {
        List<Path> delete = new ArrayList<>();
        boolean fits;
        lock.lock();
        try {
            spilling++;
            fits = makeRoomOnDisk(victim.size, delete);
        } finally {
            lock.unlock();
        }
        deleteAll(delete);
        Path file = null;
        IOException failure = null;
        if (fits) {
            try {
                file = spill.write(victim.runId, victim.sequence, victim.bytes);
            } catch (IOException e) {
                failure = e;
            }
        }
        lock.lock();
        try {
            spilling--;
            memoryBytes -= victim.size;
            if (file != null) {
                victim.file = file;
                victim.bytes = null;
                disk.addLast(victim);
                spilledBytes += victim.size;
            } else if (failure != null) {
                log.warn("could not spill " + victim, failure);
                countDrop(victim, "it could not be spilled");
            } else {
                countDrop(victim, "it is larger than spill.max (" + maxSpillBytes + " bytes)");
            }
            updateGauges();
        } finally {
            lock.unlock();
        }
        return file != null;
    }

    /** Drops the oldest spilled batches until {@code size} more bytes fit; false if they never can. */
    private boolean makeRoomOnDisk(long size, List<Path> delete) {
        if (size > maxSpillBytes) {
            return false;
        }
        while (spilledBytes + size > maxSpillBytes && !disk.isEmpty()) {
            QueuedBatch oldest = disk.pollFirst();
            spilledBytes -= oldest.size;
            delete.add(oldest.file);
            countDrop(oldest, "the spill directory (" + maxSpillBytes + " bytes) is full");
        }
        return spilledBytes + size <= maxSpillBytes;
    }

    private void deleteAll(List<Path> files) {
        for (Path f : files) {
            if (!SpillDirectory.delete(f)) {
                log.warn("could not delete spill file " + f);
            }
        }
    }

    private void countDrop(QueuedBatch batch, String reason) {
        counters.batchDropped(batch.size);
        log.warn(batch + " dropped: " + reason);
    }

    // caller holds lock
    private void updateGauges() {
        long batches = disk.size() + memory.size() + spilling + (head == null ? 0 : 1);
        counters.queued(batches, memoryBytes + spilledBytes + headBytes);
    }

    /**
     * Waits until the queue is empty, as long as batches keep leaving it: returns early when none
     * left within {@code stallMillis} (the broker is away) or at {@code deadlineNanos}.
     *
     * @return whether the queue is empty
     */
    public boolean awaitDrained(long deadlineNanos, long stallMillis) throws InterruptedException {
        lock.lock();
        try {
            while (!isEmptyLocked()) {
                long left = Math.min(deadlineNanos - nanoClock.getAsLong(),
                        TimeUnit.MILLISECONDS.toNanos(stallMillis));
                if (left <= 0) {
                    return false;
                }
                long before = removedHeads;
                headRemoved.awaitNanos(left);
                if (removedHeads == before && !isEmptyLocked()) {
                    return false;
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    private boolean isEmptyLocked() {
        return disk.isEmpty() && memory.isEmpty() && spilling == 0 && head == null;
    }

    /** Batches waiting, including the head. */
    public int size() {
        lock.lock();
        try {
            return disk.size() + memory.size() + spilling + (head == null ? 0 : 1);
        } finally {
            lock.unlock();
        }
    }

    /** True when nothing waits, not even an unacknowledged head. */
    public boolean isEmpty() {
        return size() == 0;
    }
}
