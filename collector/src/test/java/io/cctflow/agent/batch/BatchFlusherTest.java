package io.cctflow.agent.batch;

import static io.cctflow.agent.batch.Batches.m;
import static io.cctflow.agent.batch.Batches.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import io.cctflow.schema.SampleBatch;

class BatchFlusherTest {
    private final AgentCounters counters = new AgentCounters();
    private final BatchAggregator aggregator =
            new BatchAggregator(Batches.instance(), 20, 0, counters);
    private final List<SampleBatch> sent = new CopyOnWriteArrayList<>();
    private final AtomicLong clock = new AtomicLong(1_000);

    @Test
    void firstFlushComesAfterARandomFractionOfTheInterval() {
        Random random = new Random(7);
        for (int i = 0; i < 1_000; i++) {
            assertThat(BatchFlusher.initialDelayMillis(10_000, random)).isBetween(0L, 9_999L);
        }
        assertThat(BatchFlusher.initialDelayMillis(10_000, new Random(7)))
                .isEqualTo(BatchFlusher.initialDelayMillis(10_000, new Random(7)));
        assertThat(BatchFlusher.initialDelayMillis(10_000, new Random(1)))
                .isNotEqualTo(BatchFlusher.initialDelayMillis(10_000, new Random(2)));
    }

    @Test
    void startSchedulesTheFirstFlushAfterTheJitteredDelayThenOneEveryInterval() {
        List<List<Long>> schedules = new CopyOnWriteArrayList<>();
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1) {
            @Override
            public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period,
                    TimeUnit unit) {
                schedules.add(List.of(unit.toMillis(initialDelay), unit.toMillis(period)));
                return super.scheduleAtFixedRate(command, initialDelay, period, unit);
            }
        };
        long expectedDelay = BatchFlusher.initialDelayMillis(10_000, new Random(7));
        BatchFlusher flusher = new BatchFlusher(aggregator, sent::add, 10_000, new Random(7), clock::get, executor);

        flusher.start();
        flusher.shutdown(Duration.ofSeconds(1));

        assertThat(expectedDelay).as("the jittered delay for this seed").isBetween(1L, 9_999L);
        assertThat(schedules).containsExactly(List.of(expectedDelay, 10_000L));
        assertThat(executor.isShutdown()).as("the flusher shuts its executor down").isTrue();
    }

    @Test
    void flushSendsEveryWindowStampedWithTheClockAStatsOnlyHeartbeatWhenNothingWasSampled() {
        BatchFlusher flusher = new BatchFlusher(aggregator, sent::add, 1_000, new Random(1), clock::get);

        flusher.flush();
        record(aggregator, "main", false, List.of(m("a")));
        clock.set(2_000);
        flusher.flush();

        assertThat(sent).hasSize(2);
        assertThat(sent.get(0)).satisfies(heartbeat -> {
            assertThat(heartbeat.getSequence()).isZero();
            assertThat(heartbeat.getWindowStartMillis()).isZero();
            assertThat(heartbeat.getWindowEndMillis()).isEqualTo(1_000);
            assertThat(heartbeat.getStacks()).isEmpty();
            assertThat(heartbeat.getMethods()).isEmpty();
            assertThat(heartbeat.getStats()).isNotNull();
        });
        assertThat(sent.get(1)).satisfies(b -> {
            assertThat(b.getSequence()).isEqualTo(1);
            assertThat(b.getWindowStartMillis()).isEqualTo(1_000);
            assertThat(b.getWindowEndMillis()).isEqualTo(2_000);
            assertThat(b.getStacks()).hasSize(1);
        });
    }

    @Test
    void aFailingSinkNeverEscapesTheFlusher() {
        BatchFlusher flusher = new BatchFlusher(aggregator, b -> {
            throw new IllegalStateException("boom");
        }, 1_000, new Random(1), clock::get);
        record(aggregator, "main", false, List.of(m("a")));

        flusher.flush();
    }

    @Test
    @Timeout(30)
    void flushesPeriodicallyOnADaemonThreadAndOnceMoreAtShutdown() throws Exception {
        List<String> threads = new CopyOnWriteArrayList<>();
        BatchFlusher flusher = new BatchFlusher(aggregator, b -> {
            sent.add(b);
            Thread t = Thread.currentThread();
            threads.add(t.getName() + (t.isDaemon() ? " daemon" : ""));
        }, 100, new Random(1), System::currentTimeMillis);
        flusher.start();
        record(aggregator, "main", false, List.of(m("a")));
        // record again once the first sampled batch is out, so the schedule must run a second time
        await().atMost(Duration.ofSeconds(10)).until(() -> sentMethod("a"));
        record(aggregator, "main", false, List.of(m("b")));
        await().atMost(Duration.ofSeconds(10)).until(() -> sentMethod("b"));
        assertThat(threads).containsOnly(BatchFlusher.THREAD_NAME + " daemon");

        record(aggregator, "main", false, List.of(m("last")));
        flusher.shutdown(Duration.ofSeconds(1));

        assertThat(sent.get(sent.size() - 1).getMethods().get(0).getMethodName()).isEqualTo("last");
        assertThat(sent).extracting(SampleBatch::getSequence).as("every flush a batch, in sequence")
                .isEqualTo(LongStream.range(0, sent.size()).boxed().toList());
    }

    /** Whether a batch sent so far sampled the method. */
    private boolean sentMethod(String name) {
        return sent.stream().anyMatch(b -> b.getMethods().stream().anyMatch(m -> m.getMethodName().equals(name)));
    }
}
