package io.cctflow.agent.importer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.cctflow.agent.batch.AgentCounters;
import io.cctflow.agent.batch.BatchAggregator;
import io.cctflow.agent.batch.MethodId;
import io.cctflow.schema.InstanceInfo;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;

class EventTimeBatcherTest {
    private static final InstanceInfo INFO = InstanceInfo.newBuilder().setService("s")
            .setVersion("v").setInstanceId("i").setHost("imported").setPid(0).setStartTimeMillis(0)
            .build();

    private final List<SampleBatch> sent = new ArrayList<>();
    private final AgentCounters counters = new AgentCounters();
    private long sequence = 5;
    private final EventTimeBatcher batcher =
            new EventTimeBatcher(INFO, 20, 1_000, counters, () -> sequence++, sent::add);

    private void sample(long time, String method, long count) {
        batcher.at(time);
        batcher.record(new MethodId[] {new MethodId("a.B", method, "()V")}, new int[] {0}, 1,
                "main", false, count);
    }

    private static long samples(SampleBatch b) {
        return b.getStacks().stream().mapToLong(Stack::getCount).sum();
    }

    @Test
    void windowsAreAlignedToTheEpochAndSkipEmptyWindows() {
        sample(1_500, "a", 1);
        sample(1_999, "a", 2);
        sample(2_000, "b", 1);
        sample(7_250, "c", 4);
        batcher.finish();

        assertThat(sent).extracting(SampleBatch::getWindowStartMillis, SampleBatch::getWindowEndMillis,
                SampleBatch::getSequence, EventTimeBatcherTest::samples)
                .containsExactly(tuple(1_000L, 2_000L, 5L, 3L), tuple(2_000L, 3_000L, 6L, 1L),
                        tuple(7_000L, 8_000L, 7L, 4L));
        assertThat(batcher.samples()).isEqualTo(8);
        assertThat(batcher.batches()).isEqualTo(3);
        assertThat(counters.snapshot().getSamplesSeen()).isEqualTo(8);
    }

    @Test
    void aSampleOneWindowLateJoinsItsStillOpenWindow() {
        sample(1_100, "a", 1);
        sample(2_100, "a", 1);
        sample(1_900, "a", 1); // one window back: still open

        batcher.finish();

        assertThat(sent).extracting(SampleBatch::getWindowStartMillis, EventTimeBatcherTest::samples)
                .containsExactly(tuple(1_000L, 2L), tuple(2_000L, 1L));
        assertThat(batcher.lateWindows()).isZero();
    }

    @Test
    void aSampleForASentWindowBecomesAFurtherBatchOfThatWindow() {
        sample(1_100, "a", 1);
        sample(3_100, "a", 1); // sends [1000, 2000)
        sample(1_200, "a", 1); // too late for it
        batcher.finish();

        assertThat(sent).extracting(SampleBatch::getWindowStartMillis, SampleBatch::getSequence,
                EventTimeBatcherTest::samples)
                .containsExactly(tuple(1_000L, 5L, 1L), tuple(1_000L, 6L, 1L), tuple(3_000L, 7L, 1L));
        assertThat(batcher.lateWindows()).isEqualTo(1);
    }

    @Test
    void aFullWindowIsSplitIntoSeveralBatchesInsteadOfDroppingSamples() {
        batcher.at(1_000);
        int stacks = BatchAggregator.DEFAULT_MAX_STACKS + 10;
        MethodId[] frames = {new MethodId("a.B", "c", "()V")};
        int[] lines = new int[1];
        for (int i = 0; i < stacks; i++) {
            lines[0] = i; // distinct stacks by line
            batcher.record(frames, lines, 1, "main", false);
        }
        batcher.finish();

        assertThat(sent).hasSize(2).allSatisfy(b -> assertThat(b.getWindowStartMillis()).isEqualTo(1_000));
        assertThat(sent.get(0).getStacks()).hasSize(BatchAggregator.DEFAULT_MAX_STACKS);
        assertThat(sent.stream().mapToLong(EventTimeBatcherTest::samples).sum()).isEqualTo(stacks);
        assertThat(counters.snapshot().getSamplesDropped()).isZero();
    }
}
