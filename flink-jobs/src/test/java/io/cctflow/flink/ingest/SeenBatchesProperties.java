package io.cctflow.flink.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.flink.ingest.SeenBatches.Verdict;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Brute force over random arrivals of (run, sequence), copies included: {@link SeenBatches} never
 * calls a first arrival a duplicate, and recognises every copy of a batch of a tracked run within
 * its window below the run's highest number.
 */
class SeenBatchesProperties {

    @Property(tries = 300)
    void recognisesEveryCopyWithinItsWindowAndInventsNone(
            @ForAll @Size(max = 400) List<@IntRange(min = 0, max = 5) Integer> runs,
            @ForAll @Size(max = 400) List<@IntRange(min = 0, max = 3000) Integer> sequences) {
        long[] state = SeenBatches.none();
        Set<List<Long>> seen = new HashSet<>();
        Map<Long, Long> highest = new HashMap<>();
        for (int i = 0; i < Math.min(runs.size(), sequences.size()); i++) {
            long run = runs.get(i);
            long sequence = sequences.get(i);
            // a run's start time grows with its number; a sequence repeats often
            long seq = i > 0 && sequence % 3 == 0 ? sequences.get(i - 1) : sequence;
            boolean tracked = runs.subList(0, i + 1).stream().distinct().count() <= SeenBatches.RUNS;
            Verdict verdict = SeenBatches.accept(state, 1_000 * run, 7, seq);
            boolean first = seen.add(List.of(run, seq));
            if (first) {
                assertThat(verdict).as("first arrival of %d/%d", run, seq).isNotEqualTo(Verdict.DUPLICATE);
            } else if (tracked && seq > highest.getOrDefault(run, -1L) - SeenBatches.WINDOW) {
                assertThat(verdict).as("copy of %d/%d, highest %d", run, seq, highest.get(run))
                        .isEqualTo(Verdict.DUPLICATE);
            }
            highest.merge(run, seq, Math::max);
        }
    }

    @Property(tries = 100)
    void aNewerRunTakesTheOldestSlotAndAnOlderOneIsUnchecked(@ForAll @IntRange(min = 0, max = 50) int sequence) {
        long[] state = SeenBatches.none();
        List<Verdict> verdicts = new ArrayList<>();
        for (int run = 1; run <= SeenBatches.RUNS + 1; run++) {
            verdicts.add(SeenBatches.accept(state, run, 1, sequence));
        }
        assertThat(verdicts).containsOnly(Verdict.NEW);
        assertThat(SeenBatches.accept(state, 0, 1, sequence)).isEqualTo(Verdict.UNCHECKED);
        assertThat(SeenBatches.accept(state, 1, 1, sequence)).as("evicted").isEqualTo(Verdict.UNCHECKED);
        assertThat(SeenBatches.accept(state, SeenBatches.RUNS + 1, 1, sequence)).isEqualTo(Verdict.DUPLICATE);
    }
}
