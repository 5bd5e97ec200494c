package io.cctflow.bench.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.schema.MethodRef;
import io.cctflow.schema.SampleBatch;
import io.cctflow.schema.Stack;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FleetBatchesTest {
    private final StackCorpus corpus = StackCorpus.load();

    /** A corpus stack as text: method names and call-site lines, root first. */
    private static String describe(List<String> methods, List<Integer> lines, String thread) {
        return thread + " " + methods + " " + lines;
    }

    private Set<String> corpusStacks() {
        Set<String> all = new HashSet<>();
        for (int s = 0; s < corpus.stackCount(); s++) {
            List<String> names = new ArrayList<>();
            List<Integer> lines = new ArrayList<>();
            for (int i = 0; i < corpus.frames(s).length; i++) {
                names.add(corpus.method(corpus.frames(s)[i]).toString());
                lines.add(corpus.lines(s)[i]);
            }
            all.add(describe(names, lines, corpus.thread(s)));
        }
        return all;
    }

    @Test
    void batchHoldsTwoThreadsOfSamplesForOneFlushDrawnFromTheCorpus() throws Exception {
        FleetBatches batches = new FleetBatches(corpus, 2, 20, 10_000, new Random(7));
        Set<String> known = corpusStacks();

        for (int k = 0; k < 5; k++) {
            SampleBatch b = batches.next(FleetBatches.instance("t", 3, 0), k, 1_000, 11_000);

            assertThat(batches.samplesPerBatch()).isEqualTo(1_000);
            assertThat(b.getStacks().stream().mapToLong(Stack::getCount).sum()).isEqualTo(1_000);
            assertThat(b.getSequence()).isEqualTo(k);
            Set<Integer> used = new HashSet<>();
            Set<String> seen = new HashSet<>();
            for (Stack s : b.getStacks()) {
                List<String> names = new ArrayList<>();
                for (int m : s.getFrames()) {
                    MethodRef ref = b.getMethods().get(m);
                    names.add(ref.getClassName() + "." + ref.getMethodName() + ref.getDescriptor());
                    used.add(m);
                }
                String text = describe(names, s.getLines(), s.getThread());
                assertThat(known).as("batch stack is a corpus stack").contains(text);
                assertThat(seen.add(text)).as("identical stacks are summed").isTrue();
            }
            assertThat(used).as("the dictionary holds only used methods").hasSize(b.getMethods().size());
        }
    }

    @Test
    void leastSquaresSlopeOfALineIsItsSlope() {
        List<ConsumerLag.Snapshot> lags = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            lags.add(new ConsumerLag.Snapshot(1_000 + 7L * i, 1_000, i * 2_000_000_000L)); // +7 batches per 2 s
        }
        assertThat(SustainedRatePhase.slopePerSecond(lags)).isCloseTo(3.5, org.assertj.core.data.Offset.offset(1e-9));
    }
}
