package io.cctflow.flink.window;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * The trigger on Flink's window operator (operator harness, one-minute windows summing values,
 * early firing every 5 s of processing time): early firings while elements arrive, one final
 * firing when the watermark passes the end unless the last early firing already emitted every
 * element, and no timers or state left once the window is gone.
 */
class EarlyFiringTriggerTest {
    private static final long MINUTE = 60_000;

    @Test
    void firesEarlyForNewElementsAndAtTheEndOnlyIfSomethingArrivedSinceTheLastFiring() throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<String, Tuple2<String, Long>, Tuple2<String, Long>> h = harness()) {
            h.setProcessingTime(0);
            h.processElement(new StreamRecord<>(Tuple2.of("a", 1L), 1_000));
            h.processElement(new StreamRecord<>(Tuple2.of("b", 10L), 2_000));
            h.setProcessingTime(5_000);
            assertThat(h.extractOutputValues()).containsExactlyInAnyOrder(Tuple2.of("a", 1L), Tuple2.of("b", 10L));

            h.setProcessingTime(7_000); // nothing new: no firing
            h.processElement(new StreamRecord<>(Tuple2.of("b", 20L), 30_000)); // b changes after its firing
            h.processWatermark(new Watermark(MINUTE));
            // a's last early firing emitted its final sum: not written again; b is
            assertThat(h.extractOutputValues()).containsExactlyInAnyOrder(Tuple2.of("a", 1L), Tuple2.of("b", 10L),
                    Tuple2.of("b", 30L));

            h.setProcessingTime(20_000); // b's early timer was deleted with its final firing
            assertThat(h.extractOutputValues()).hasSize(3);
            assertThat(h.numProcessingTimeTimers()).isZero();
            assertThat(h.numEventTimeTimers()).isZero();
            assertThat(h.numKeyedStateEntries()).isZero();
        }
    }

    @Test
    void aWindowClosedBeforeItsFirstEarlyFiringFiresOnceAtItsEnd() throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<String, Tuple2<String, Long>, Tuple2<String, Long>> h = harness()) {
            h.setProcessingTime(0);
            h.processElement(new StreamRecord<>(Tuple2.of("a", 1L), 1_000));
            h.processElement(new StreamRecord<>(Tuple2.of("a", 2L), 2_000));
            h.processWatermark(new Watermark(MINUTE));
            h.setProcessingTime(10_000);
            assertThat(h.extractOutputValues()).containsExactly(Tuple2.of("a", 3L));
            assertThat(h.numProcessingTimeTimers()).isZero();
            assertThat(h.numKeyedStateEntries()).isZero();
        }
    }

    @SuppressWarnings("unchecked")
    private static KeyedOneInputStreamOperatorTestHarness<String, Tuple2<String, Long>, Tuple2<String, Long>> harness()
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        KeySelector<Tuple2<String, Long>, String> key = t -> t.f0;
        SingleOutputStreamOperator<Tuple2<String, Long>> sums = env.fromData(Tuple2.of("a", 0L))
                .keyBy(key)
                .window(TumblingEventTimeWindows.of(Duration.ofMinutes(1)))
                .trigger(new EarlyFiringTrigger(Duration.ofSeconds(5)))
                .reduce((x, y) -> Tuple2.of(x.f0, x.f1 + y.f1));
        OneInputTransformation<Tuple2<String, Long>, Tuple2<String, Long>> window =
                (OneInputTransformation<Tuple2<String, Long>, Tuple2<String, Long>>) sums.getTransformation();
        KeyedOneInputStreamOperatorTestHarness<String, Tuple2<String, Long>, Tuple2<String, Long>> h =
                new KeyedOneInputStreamOperatorTestHarness<>(window.getOperatorFactory(), key, Types.STRING);
        h.open();
        return h;
    }
}
