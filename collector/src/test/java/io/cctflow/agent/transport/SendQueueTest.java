package io.cctflow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.log.RateLimitedLog;
import io.cctflow.schema.AgentStats;

class SendQueueTest {
    private static final String KEY = "shop\u001fv1\u001fpod-1";

    private final AgentCounters counters = new AgentCounters();
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    // logs every warning: the tests read them
    private final RateLimitedLog log = new RateLimitedLog(0, TimeUnit.NANOSECONDS, nanos::get);

    @TempDir
    Path spillRoot;

    private SendQueue inMemory(long bound) {
        return SendQueue.inMemory(bound, counters, log, nanos::get);
    }

    private SendQueue spilling(long bound, long spillMax, long runId) throws IOException {
        return SendQueue.withSpill(bound, spillRoot, KEY, spillMax, runId, counters, log, nanos::get);
    }

    /** A payload of {@code size} bytes that names its sequence. */
    private static byte[] payload(long sequence, int size) {
        byte[] b = new byte[size];
        Arrays.fill(b, (byte) sequence);
        return b;
    }

    /** Takes, reads and acknowledges everything, returning the sequences read (first payload byte). */
    private static List<Integer> drain(SendQueue q) throws InterruptedException {
        List<Integer> seen = new ArrayList<>();
        QueuedBatch b;
        while ((b = q.take(0, TimeUnit.MILLISECONDS)) != null) {
            byte[] p = q.payload(b);
            if (p != null) {
                seen.add((int) p[0]);
                q.acknowledge(b);
            }
        }
        return seen;
    }

    @Test
    void handsBatchesOutInOfferOrder() throws Exception {
        SendQueue q = inMemory(1 << 20);
        for (int i = 0; i < 5; i++) {
            q.offer(i, payload(i, 10));
        }

        assertThat(drain(q)).containsExactly(0, 1, 2, 3, 4);
        assertThat(q.isEmpty()).isTrue();
        assertThat(counters.snapshot().getBatchesSent()).isEqualTo(5);
        assertThat(counters.snapshot().getBatchesDropped()).isZero();
    }

    /** Without the wake-up the waiting take would hold the test for an hour (its timeout fails it). */
    @Test
    @Timeout(60)
    void stopWaitingEndsAWaitingTakeAndLaterTakesOnlyHandOutWhatIsQueued() throws Exception {
        SendQueue q = inMemory(1 << 20);
        CompletableFuture<QueuedBatch> waiting = CompletableFuture.supplyAsync(() -> takeWithin(q, 1));

        q.stopWaiting();

        assertThat(waiting.get()).isNull();
        assertThat(q.take(1, TimeUnit.HOURS)).isNull();
        q.offer(7, payload(7, 10));
        assertThat(q.take(1, TimeUnit.HOURS)).isNotNull();
    }

    private static QueuedBatch takeWithin(SendQueue q, long hours) {
        try {
            return q.take(hours, TimeUnit.HOURS);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void dropsTheOldestWhenTheMemoryBoundIsHitAndCountsBatchesAndBytes() throws Exception {
        SendQueue q = inMemory(100);
        for (int i = 0; i < 4; i++) {
            q.offer(i, payload(i, 40));
        }

        AgentStats stats = counters.snapshot();
        assertThat(stats.getBatchesDropped()).isEqualTo(2);
        assertThat(stats.getBytesDropped()).isEqualTo(80);
        assertThat(stats.getBatchesQueued()).isEqualTo(2);
        assertThat(stats.getBytesQueued()).isEqualTo(80);
        assertThat(drain(q)).containsExactly(2, 3);
    }

    @Test
    void keepsTheNewestBatchEvenWhenItAloneExceedsTheBound() throws Exception {
        SendQueue q = inMemory(100);
        q.offer(0, payload(0, 40));
        q.offer(1, payload(1, 500));

        assertThat(drain(q)).containsExactly(1);
        assertThat(counters.snapshot().getBatchesDropped()).isEqualTo(1);
    }

    @Test
    void theHeadStaysUntilAcknowledgedAndIsNeverDroppedForRoom() throws Exception {
        SendQueue q = inMemory(100);
        q.offer(0, payload(0, 60));
        QueuedBatch head = q.take(0, TimeUnit.MILLISECONDS);
        // not acknowledged: a retry gets the same batch
        assertThat(q.take(0, TimeUnit.MILLISECONDS)).isSameAs(head);

        for (int i = 1; i <= 4; i++) {
            q.offer(i, payload(i, 60));
        }

        // the head may be with the broker already: the batches behind it make room
        assertThat(q.take(0, TimeUnit.MILLISECONDS)).isSameAs(head);
        q.acknowledge(head);
        assertThat(drain(q)).containsExactly(4);
        assertThat(counters.snapshot().getBatchesDropped()).isEqualTo(3);
    }

    @Test
    void aHeadTheProducerNeverAcceptedIsTheOldestAndIsDroppedFirst() throws Exception {
        SendQueue q = inMemory(100);
        q.offer(0, payload(0, 60));
        QueuedBatch head = q.take(0, TimeUnit.MILLISECONDS);
        q.retryLater(head, false); // no metadata: the producer refused it, the sender backs off

        q.offer(1, payload(1, 60));

        assertThat(counters.snapshot().getBatchesDropped()).isEqualTo(1);
        assertThat(drain(q)).containsExactly(1);
    }

    @Test
    void aHeadTheProducerAcceptedOnceIsNeverDropped() throws Exception {
        SendQueue q = inMemory(100);
        q.offer(0, payload(0, 60));
        QueuedBatch head = q.take(0, TimeUnit.MILLISECONDS);
        q.retryLater(head, true);

        q.offer(1, payload(1, 60));
        q.offer(2, payload(2, 60));

        assertThat(drain(q)).containsExactly(0, 2);
    }

    @Test
    void countsSendLatencyFromOfferToAcknowledgement() throws Exception {
        SendQueue q = inMemory(1 << 20);
        q.offer(0, payload(0, 10));
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(250));
        q.offer(1, payload(1, 10));
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(50));

        drain(q);

        AgentStats stats = counters.snapshot();
        assertThat(stats.getSendLatencyMillisSum()).isEqualTo(300 + 50);
        assertThat(stats.getSendLatencyMillisMax()).isEqualTo(300);
        assertThat(stats.getBytesSent()).isEqualTo(20);
    }

    @Test
    void takeWaitsForAnOfferFromAnotherThread() throws Exception {
        SendQueue q = inMemory(1 << 20);
        Thread offerer = new Thread(() -> q.offer(7, payload(7, 3)));
        offerer.start();

        QueuedBatch b = q.take(30, TimeUnit.SECONDS);

        assertThat(b).isNotNull();
        assertThat(b.sequence).isEqualTo(7);
        offerer.join();
    }

    @Test
    void overflowSpillsToDiskAndComesBackInOrder() throws Exception {
        SendQueue q = spilling(100, 1 << 20, 1);
        for (int i = 0; i < 5; i++) {
            q.offer(i, payload(i, 40));
        }
        q.spillOverflow();

        assertThat(spillFiles()).hasSize(3);
        assertThat(counters.snapshot().getBatchesDropped()).isZero();
        assertThat(counters.snapshot().getBatchesQueued()).isEqualTo(5);
        assertThat(drain(q)).containsExactly(0, 1, 2, 3, 4);
        assertThat(spillFiles()).as("acknowledged batches leave no file").isEmpty();
    }

    @Test
    void withSpillingMemoryDropsOnlyAtTwiceTheBound() throws Exception {
        SendQueue q = spilling(100, 1 << 20, 1);
        for (int i = 0; i < 6; i++) {
            q.offer(i, payload(i, 40)); // nobody spills: the sender thread is stuck
        }

        assertThat(counters.snapshot().getBatchesDropped()).isEqualTo(1);
        assertThat(drain(q)).containsExactly(1, 2, 3, 4, 5);
    }

    @Test
    void theSpillDirectoryIsBoundedByDroppingTheOldestSpilledBatch() throws Exception {
        SendQueue q = spilling(40, 100, 1);
        for (int i = 0; i < 6; i++) {
            q.offer(i, payload(i, 40));
            q.spillOverflow();
        }

        // memory keeps the newest (40 bytes), disk at most 100 bytes: two batches of 40
        assertThat(spillFiles()).hasSize(2);
        assertThat(counters.snapshot().getBatchesDropped()).isEqualTo(3);
        assertThat(counters.snapshot().getBytesDropped()).isEqualTo(120);
        assertThat(drain(q)).containsExactly(3, 4, 5);
    }

    @Test
    void whatIsLeftAtExitIsSentFirstByTheNextRunOfTheSameExecution() throws Exception {
        SendQueue first = spilling(1 << 20, 1 << 20, 1_000);
        for (int i = 0; i < 3; i++) {
            first.offer(i, payload(i, 10));
        }
        QueuedBatch inFlight = first.take(0, TimeUnit.MILLISECONDS);
        assertThat(inFlight.sequence).isZero();

        assertThat(first.spillAll(Long.MAX_VALUE)).isEqualTo(3);

        SendQueue next = spilling(1 << 20, 1 << 20, 2_000);
        next.offer(0, payload(10, 10)); // the next run starts its sequence again
        assertThat(drain(next)).containsExactly(0, 1, 2, 10);
        assertThat(SendQueue.withSpill(1 << 20, spillRoot, "other\u001fv\u001fi", 1 << 20, 3_000,
                counters, log, nanos::get).isEmpty()).as("another execution's spill").isTrue();
    }

    @Test
    void withoutSpillingWhatIsLeftAtExitIsCountedAsDropped() throws Exception {
        SendQueue q = inMemory(1 << 20);
        q.offer(0, payload(0, 10));
        q.offer(1, payload(1, 10));
        q.take(0, TimeUnit.MILLISECONDS);

        assertThat(q.spillAll(Long.MAX_VALUE)).isZero();

        assertThat(counters.snapshot().getBatchesDropped()).isEqualTo(2);
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void aDamagedSpillFileIsSkippedWithAWarningAndTheRestIsSent() throws Exception {
        SendQueue first = spilling(1 << 20, 1 << 20, 1);
        for (int i = 0; i < 3; i++) {
            first.offer(i, payload(i, 10));
        }
        first.spillAll(Long.MAX_VALUE);
        List<Path> files = spillFiles();
        byte[] damaged = Files.readAllBytes(files.get(1));
        damaged[damaged.length - 1] ^= 0x55;
        Files.write(files.get(1), damaged);
        Files.writeString(files.get(0).resolveSibling("leftover-of-a-crash.batch.tmp"), "partial");

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream original = System.err;
        List<Integer> sent;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            sent = drain(spilling(1 << 20, 1 << 20, 2));
        } finally {
            System.setErr(original);
        }

        assertThat(sent).containsExactly(0, 2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("[cctflow-agent] WARN skipping spilled batch 1", "is damaged: checksum mismatch");
        assertThat(counters.snapshot().getBatchesDropped()).as("the damaged batch and the crash leftover")
                .isEqualTo(2);
        assertThat(spillFiles()).isEmpty();
        try (var all = Files.walk(spillRoot)) {
            assertThat(all.filter(Files::isRegularFile).map(p -> p.getFileName().toString()))
                    .as("the crash leftover is cleaned up; the owner and its lock stay while the queue is open")
                    .containsExactlyInAnyOrder(SpillDirectory.OWNER_FILE, SpillDirectory.LOCK_FILE);
        }
    }

    @Test
    void aTruncatedSpillFileIsRecognised() throws Exception {
        SpillDirectory dir = SpillDirectory.forExecution(spillRoot, KEY);
        Path file = dir.write(1, 0, payload(0, 100));
        byte[] all = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(all, all.length - 10));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SpillDirectory.read(file))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("header says 100 bytes, file holds 90");
    }

    private List<Path> spillFiles() throws IOException {
        try (var all = Files.walk(spillRoot)) {
            return all.filter(p -> p.toString().endsWith(SpillDirectory.SUFFIX)).sorted().toList();
        }
    }
}
