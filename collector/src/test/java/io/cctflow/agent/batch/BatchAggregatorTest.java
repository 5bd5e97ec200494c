package io.cctflow.agent.batch;

import static io.cctflow.agent.batch.Batches.m;
import static io.cctflow.agent.batch.Batches.names;
import static io.cctflow.agent.batch.Batches.record;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.cctflow.schema.AgentStats;
import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;

class BatchAggregatorTest {
    private final AgentCounters counters = new AgentCounters();
    private final BatchAggregator aggregator =
            new BatchAggregator(Batches.instance(), 20, 1_000, counters);

    @Test
    void countsIdenticalStacksOnce() {
        for (int i = 0; i < 3; i++) {
            record(aggregator, "main", false, List.of(m("main"), m("run"), m("work")), 0, 10, 20);
        }
        record(aggregator, "main", false, List.of(m("main"), m("run")), 0, 10);

        SampleBatch batch = aggregator.drain(2_000);

        assertThat(batch.getStacks()).hasSize(2);
        Stack first = batch.getStacks().get(0);
        assertThat(names(batch, first)).containsExactly("main", "run", "work");
        assertThat(first.getCount()).isEqualTo(3);
        assertThat(batch.getStacks().get(1).getCount()).isEqualTo(1);
        assertThat(batch.getMethods()).extracting(MethodRef::getMethodName)
                .containsExactly("main", "run", "work");
        assertThat(first.getFrames()).containsExactly(0, 1, 2);
    }

    @Test
    void keepsCallSiteLinesAndTellsStacksApartByThem() {
        record(aggregator, "main", false, List.of(m("main"), m("work")), 0, 10);
        record(aggregator, "main", false, List.of(m("main"), m("work")), 0, 11);

        SampleBatch batch = aggregator.drain(2_000);

        assertThat(batch.getStacks()).extracting(Stack::getLines)
                .containsExactly(List.of(0, 10), List.of(0, 11));
        assertThat(batch.getStacks()).extracting(Stack::getCount).containsExactly(1L, 1L);
        assertThat(batch.getMethods()).hasSize(2);
    }

    @Test
    void tellsStacksApartByThreadAndTruncation() {
        List<MethodId> frames = List.of(m("a"), m("b"));
        record(aggregator, "pool-#-thread-#", false, frames);
        record(aggregator, "main", false, frames);
        record(aggregator, "main", true, frames);
        record(aggregator, "main", true, frames);

        SampleBatch batch = aggregator.drain(2_000);

        assertThat(batch.getStacks()).extracting(Stack::getThread, Stack::getTruncated, Stack::getCount)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("pool-#-thread-#", false, 1L),
                        org.assertj.core.groups.Tuple.tuple("main", false, 1L),
                        org.assertj.core.groups.Tuple.tuple("main", true, 2L));
    }

    @Test
    void copiesTheCallersArraysSoTheyCanBeReused() {
        MethodId[] frames = {m("a"), m("b")};
        int[] lines = {0, 5};
        aggregator.record(frames, lines, 2, "main", false);
        frames[1] = m("c");
        lines[1] = 6;
        aggregator.record(frames, lines, 2, "main", false);

        SampleBatch batch = aggregator.drain(2_000);

        assertThat(batch.getStacks()).hasSize(2);
        assertThat(names(batch, batch.getStacks().get(0))).containsExactly("a", "b");
        assertThat(batch.getStacks().get(0).getLines()).containsExactly(0, 5);
    }

    @Test
    void scopesTheMethodDictionaryToOneBatch() {
        record(aggregator, "main", false, List.of(m("a"), m("b")));
        SampleBatch first = aggregator.drain(2_000);
        record(aggregator, "main", false, List.of(m("c"), m("b")));
        SampleBatch second = aggregator.drain(3_000);

        assertThat(first.getMethods()).extracting(MethodRef::getMethodName).containsExactly("a", "b");
        assertThat(second.getMethods()).extracting(MethodRef::getMethodName).containsExactly("c", "b");
        assertThat(second.getStacks().get(0).getFrames()).containsExactly(0, 1);
    }

    @Test
    void numbersBatchesFromZeroWithContiguousWindows() {
        record(aggregator, "main", false, List.of(m("a")));
        SampleBatch b0 = aggregator.drain(2_000);
        record(aggregator, "main", false, List.of(m("a")));
        SampleBatch b1 = aggregator.drain(3_000);

        assertThat(b0.getSequence()).isZero();
        assertThat(b1.getSequence()).isEqualTo(1);
        assertThat(b0.getWindowStartMillis()).isEqualTo(1_000);
        assertThat(b0.getWindowEndMillis()).isEqualTo(2_000);
        assertThat(b1.getWindowStartMillis()).isEqualTo(2_000);
        assertThat(b1.getWindowEndMillis()).isEqualTo(3_000);
        assertThat(b1.getSamplingPeriodMillis()).isEqualTo(20);
        assertThat(b1.getInstance()).isEqualTo(Batches.instance());
    }

    @Test
    void emptyWindowProducesNoBatchAndUsesNoSequenceNumber() {
        assertThat(aggregator.drain(2_000)).isNull();
        record(aggregator, "main", false, List.of(m("a")));

        SampleBatch batch = aggregator.drain(3_000);

        assertThat(batch.getSequence()).isZero();
        assertThat(batch.getWindowStartMillis()).isEqualTo(2_000);
        assertThat(aggregator.drain(4_000)).isNull();
    }

    @Test
    void anEmptyWindowGivesAStatsOnlyHeartbeatInSequenceWhenAskedFor() {
        BatchAggregator live = new BatchAggregator(Batches.instance(), 20, 1_000, counters,
                BatchAggregator.DEFAULT_MAX_METHODS, BatchAggregator.DEFAULT_MAX_STACKS, 256);
        record(live, "main", false, List.of(m("a")));
        SampleBatch sampled = live.drainOrHeartbeat(2_000);
        counters.batchSent(300, 7);
        counters.batchDropped(50);
        counters.queued(1, 120);

        SampleBatch heartbeat = live.drainOrHeartbeat(3_000);
        record(live, "main", false, List.of(m("b")));
        SampleBatch next = live.drainOrHeartbeat(4_000);

        assertThat(sampled.getSequence()).isZero();
        assertThat(sampled.getStacks()).hasSize(1);
        assertThat(heartbeat.getSequence()).isEqualTo(1);
        assertThat(heartbeat.getWindowStartMillis()).isEqualTo(2_000);
        assertThat(heartbeat.getWindowEndMillis()).isEqualTo(3_000);
        assertThat(heartbeat.getSamplingPeriodMillis()).isEqualTo(20);
        assertThat(heartbeat.getInstance()).isEqualTo(Batches.instance());
        assertThat(heartbeat.getMethods()).isEmpty();
        assertThat(heartbeat.getStacks()).isEmpty();
        AgentStats stats = heartbeat.getStats();
        assertThat(stats.getSamplesSeen()).isEqualTo(1);
        assertThat(stats.getBatchesSent()).isEqualTo(1);
        assertThat(stats.getSendLatencyMillisMax()).isEqualTo(7);
        assertThat(stats.getBatchesDropped()).isEqualTo(1);
        assertThat(stats.getBatchesQueued()).isEqualTo(1);
        assertThat(stats.getBytesQueued()).isEqualTo(120);
        assertThat(stats.getStackDepth()).isEqualTo(256);
        assertThat(stats.getTruncationWarning()).isEmpty();
        assertThat(next.getSequence()).isEqualTo(2);
        assertThat(names(next, next.getStacks().get(0))).containsExactly("b");
    }

    @Test
    void aHeartbeatCarriesNoMethodOfASampleDroppedAtABound() {
        BatchAggregator small = new BatchAggregator(Batches.instance(), 20, 0, counters, 1, 1);
        record(small, "main", false, List.of(m("a"), m("b"))); // b is over maxMethods: dropped

        SampleBatch heartbeat = small.drainOrHeartbeat(1_000);

        assertThat(heartbeat.getStacks()).isEmpty();
        assertThat(heartbeat.getMethods()).as("a was interned, but no stack uses it").isEmpty();
        assertThat(heartbeat.getStats().getSamplesDropped()).isEqualTo(1);
    }

    @Test
    void windowNeverEndsBeforeItStartsWhenTheClockStepsBack() {
        record(aggregator, "main", false, List.of(m("a")));

        SampleBatch batch = aggregator.drain(500);

        assertThat(batch.getWindowEndMillis()).isEqualTo(batch.getWindowStartMillis());
    }

    @Test
    void carriesCumulativeAgentStats() {
        record(aggregator, "main", true, List.of(m("a")));
        aggregator.drain(2_000);
        counters.batchSent(100, 40);
        counters.batchDropped(30);
        counters.queued(2, 500);
        record(aggregator, "main", false, List.of(m("a")));

        AgentStats stats = aggregator.drain(3_000).getStats();

        assertThat(stats.getSamplesSeen()).isEqualTo(2);
        assertThat(stats.getSamplesTruncated()).isEqualTo(1);
        assertThat(stats.getBatchesSent()).isEqualTo(1);
        assertThat(stats.getBytesSent()).isEqualTo(100);
        assertThat(stats.getSendLatencyMillisSum()).isEqualTo(40);
        assertThat(stats.getSendLatencyMillisMax()).isEqualTo(40);
        assertThat(stats.getBatchesDropped()).isEqualTo(1);
        assertThat(stats.getBytesDropped()).isEqualTo(30);
        assertThat(stats.getBatchesQueued()).isEqualTo(2);
        assertThat(stats.getBytesQueued()).isEqualTo(500);
        assertThat(stats.getSamplesDropped()).isZero();
    }

    @Test
    void dropsAndCountsSamplesBeyondTheBounds() {
        BatchAggregator small = new BatchAggregator(Batches.instance(), 20, 0, counters, 2, 1);
        record(small, "main", false, List.of(m("a"), m("b")));
        record(small, "main", false, List.of(m("a"), m("b"))); // same stack: fits
        record(small, "main", false, List.of(m("a"))); // a second stack: over maxStacks
        record(small, "main", false, List.of(m("a"), m("c"))); // a third method: over maxMethods

        SampleBatch batch = small.drain(1_000);

        assertThat(batch.getStacks()).singleElement().extracting(Stack::getCount).isEqualTo(2L);
        assertThat(batch.getStats().getSamplesSeen()).isEqualTo(4);
        assertThat(batch.getStats().getSamplesDropped()).isEqualTo(2);
    }

    @Test
    void tryRecordRefusesWhatWouldExceedABoundUnlessTheWindowIsEmpty() {
        BatchAggregator small = new BatchAggregator(Batches.instance(), 20, 0, counters, 2, 1);
        MethodId[] ab = {m("a"), m("b")};
        MethodId[] ac = {m("a"), m("c")};
        int[] lines = {0, 0};

        assertThat(small.tryRecord(ab, lines, 2, "main", false, 5)).isTrue();
        assertThat(small.tryRecord(ab, lines, 2, "main", false, 2)).as("same stack fits").isTrue();
        assertThat(small.tryRecord(ac, lines, 2, "main", false, 1)).as("third method").isFalse();
        assertThat(small.tryRecord(ab, lines, 2, "other", false, 1)).as("second stack").isFalse();
        SampleBatch first = small.drain(1_000);
        assertThat(small.tryRecord(ac, lines, 2, "main", true, 3)).as("empty window").isTrue();
        SampleBatch second = small.drain(2_000);

        assertThat(first.getStacks()).singleElement().extracting(Stack::getCount).isEqualTo(7L);
        assertThat(second.getStacks()).singleElement().extracting(Stack::getCount).isEqualTo(3L);
        assertThat(second.getStats().getSamplesSeen()).as("refused samples are not counted").isEqualTo(10);
        assertThat(second.getStats().getSamplesTruncated()).isEqualTo(3);
        assertThat(second.getStats().getSamplesDropped()).isZero();
    }

    @Test
    void handlesManyDistinctDeepStacks() {
        MethodId[] frames = new MethodId[300];
        int[] lines = new int[300];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = m("f" + (i % 40));
        }
        for (int s = 0; s < 5_000; s++) {
            lines[299] = s;
            aggregator.record(frames, lines, 300, "main", s % 2 == 0);
            aggregator.record(frames, lines, 300, "main", s % 2 == 0);
        }

        SampleBatch batch = aggregator.drain(2_000);

        assertThat(batch.getStacks()).hasSize(5_000).allSatisfy(st -> {
            assertThat(st.getCount()).isEqualTo(2);
            assertThat(st.getFrames()).hasSize(300);
        });
        assertThat(batch.getMethods()).hasSize(40);
    }

    @Test
    void losesNoSampleWhileOneThreadRecordsAndAnotherDrains() throws Exception {
        int samples = 200_000;
        Thread writer = new Thread(() -> {
            MethodId[] frames = {m("a"), m("b"), m("c")};
            int[] lines = {0, 1, 2};
            for (int i = 0; i < samples; i++) {
                lines[2] = i % 7;
                aggregator.record(frames, lines, 3, "main", false);
            }
        });
        long counted = 0;
        long time = 2_000;
        writer.start();
        while (writer.isAlive()) {
            counted += count(aggregator.drain(time++));
        }
        writer.join();
        counted += count(aggregator.drain(time));

        assertThat(counted).isEqualTo(samples);
    }

    private static long count(SampleBatch batch) {
        return batch == null ? 0 : batch.getStacks().stream().mapToLong(Stack::getCount).sum();
    }

    @Test
    void roundTripsThroughSingleObjectEncoding() throws Exception {
        record(aggregator, "pool-#-thread-#", true, List.of(m("main"), m("run")), 0, 42);
        record(aggregator, "main", false, List.of(m("main")), 0);
        SampleBatch batch = aggregator.drain(2_000);

        ByteBuffer bytes = batch.toByteBuffer();
        SampleBatch decoded = SampleBatch.fromByteBuffer(bytes);

        assertThat(decoded).isEqualTo(batch);
        assertThat(decoded.getStacks().get(0).getLines()).containsExactly(0, 42);
        assertThat(decoded.getInstance().getLabels()).containsEntry("zone", "a");
    }

    @Test
    void statsCarryTheConfiguredDepthAndNoWarningWhenNothingIsTruncated() {
        BatchAggregator live = new BatchAggregator(Batches.instance(), 20, 0, counters,
                BatchAggregator.DEFAULT_MAX_METHODS, BatchAggregator.DEFAULT_MAX_STACKS, 256);
        for (int i = 0; i < 200; i++) {
            record(live, "main", false, List.of(m("main"), m("work")));
        }

        AgentStats stats = live.drain(1_000).getStats();

        assertThat(stats.getStackDepth()).isEqualTo(256);
        assertThat(stats.getTruncationWarning()).isEmpty();
    }

    @Test
    void statsCarryNoWarningForOnePercentOrLess() {
        BatchAggregator live = new BatchAggregator(Batches.instance(), 20, 0, counters,
                BatchAggregator.DEFAULT_MAX_METHODS, BatchAggregator.DEFAULT_MAX_STACKS, 256);
        for (int i = 0; i < 99; i++) {
            record(live, "main", false, List.of(m("main"), m("work")));
        }
        record(live, "main", true, List.of(m("a"), m("b"), m("c")));

        AgentStats stats = live.drain(1_000).getStats();

        assertThat(stats.getStackDepth()).as("where JFR cut the one truncated stack").isEqualTo(3);
        assertThat(stats.getTruncationWarning()).as("1 of 100 is not more than 1 %").isEmpty();
    }

    @Test
    void statsWarnWithTheDepthWhereJfrCutTheStacks() {
        // JFR was already running at 3 frames, so the configured 256 never took effect
        BatchAggregator live = new BatchAggregator(Batches.instance(), 20, 0, counters,
                BatchAggregator.DEFAULT_MAX_METHODS, BatchAggregator.DEFAULT_MAX_STACKS, 256);
        for (int i = 0; i < 97; i++) {
            record(live, "main", false, List.of(m("main"), m("work")));
        }
        for (int i = 0; i < 3; i++) {
            record(live, "main", true, List.of(m("a"), m("b"), m("c")));
        }

        AgentStats first = live.drain(1_000).getStats();
        record(live, "main", false, List.of(m("main")));
        AgentStats second = live.drain(2_000).getStats();

        assertThat(first.getStackDepth()).isEqualTo(3);
        assertThat(first.getTruncationWarning()).contains("3 of 100 samples (3.0 %)",
                "-XX:FlightRecorderOptions:stackdepth=6");
        assertThat(second.getTruncationWarning()).as("per batch, not cumulative").isEmpty();
        assertThat(second.getSamplesTruncated()).as("the counter stays cumulative").isEqualTo(3);
    }

    @Test
    void importedBatchesWarnPerBatchToo() {
        for (int i = 0; i < 4; i++) {
            assertThat(aggregator.tryRecord(new MethodId[] {m("a"), m("b")}, new int[2], 2, "main",
                    true, 5)).isTrue();
        }

        AgentStats stats = aggregator.drain(2_000).getStats();

        assertThat(stats.getStackDepth()).isEqualTo(2);
        assertThat(stats.getTruncationWarning()).contains("20 of 20 samples", "stackdepth=4");
    }
}
