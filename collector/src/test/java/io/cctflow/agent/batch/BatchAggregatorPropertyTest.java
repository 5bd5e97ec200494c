package io.cctflow.agent.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class BatchAggregatorPropertyTest {
    /** A sample as the sampler would deliver it. */
    record Sample(List<String> methods, List<Integer> lines, String thread, boolean truncated) {
    }

    @Property(tries = 200)
    void expandingABatchGivesBackExactlyTheRecordedSamples(@ForAll("samples") List<Sample> samples)
            throws Exception {
        AgentCounters counters = new AgentCounters();
        BatchAggregator aggregator = new BatchAggregator(Batches.instance(), 20, 0, counters);
        for (Sample s : samples) {
            MethodId[] frames = s.methods().stream().map(Batches::m).toArray(MethodId[]::new);
            int[] lines = s.lines().stream().mapToInt(Integer::intValue).toArray();
            aggregator.record(frames, lines, frames.length, s.thread(), s.truncated());
        }

        SampleBatch batch = aggregator.drain(1_000);

        if (samples.isEmpty()) {
            assertThat(batch).isNull();
            return;
        }
        batch = SampleBatch.fromByteBuffer(batch.toByteBuffer());
        List<Sample> expanded = new ArrayList<>();
        for (Stack st : batch.getStacks()) {
            Sample s = new Sample(Batches.names(batch, st), List.copyOf(st.getLines()), st.getThread(),
                    st.getTruncated());
            expanded.addAll(Collections.nCopies(Math.toIntExact(st.getCount()), s));
        }
        assertThat(expanded).containsExactlyInAnyOrderElementsOf(samples);
        assertThat(batch.getStacks())
                .extracting(st -> List.of(st.getFrames(), st.getLines(), st.getThread(), st.getTruncated()))
                .doesNotHaveDuplicates();
        assertThat(batch.getMethods()).doesNotHaveDuplicates();
        assertThat(batch.getStats().getSamplesSeen()).isEqualTo(samples.size());
    }

    @Provide
    Arbitrary<List<Sample>> samples() {
        Arbitrary<Sample> sample = Arbitraries.integers().between(1, 6).flatMap(depth -> Combinators.combine(
                Arbitraries.of("a", "b", "c", "d").list().ofSize(depth),
                Arbitraries.integers().between(0, 3).list().ofSize(depth),
                Arbitraries.of("main", "pool-#-thread-#"),
                Arbitraries.of(true, false)).as(Sample::new));
        return sample.list().ofMaxSize(40);
    }
}
