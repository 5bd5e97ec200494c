package io.cctflow.flink.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class RunSequencesTest {
    private static final long START = 1_700_000_000_000L;

    @Test
    void countsTheNumbersSkippedWithinARun() {
        long[] state = RunSequences.none();
        assertThat(RunSequences.accept(state, START, 7, 0)).isZero();
        assertThat(RunSequences.accept(state, START, 7, 1)).isZero();
        assertThat(RunSequences.accept(state, START, 7, 4)).isEqualTo(2);
        assertThat(RunSequences.accept(state, START, 7, 4)).as("the same batch again").isZero();
        assertThat(RunSequences.accept(state, START, 7, 3)).as("late, already counted lost").isZero();
        assertThat(RunSequences.accept(state, START, 7, 5)).isZero();
    }

    /**
     * A pinned instance restarts: the new JVM numbers from 0 again, after the batches its
     * predecessor spilled. Compared with the old run's highest number, the new run's losses would
     * go unseen until it passed it.
     */
    @Test
    void aRestartedInstanceIsCheckedFromItsOwnFirstBatch() {
        long[] state = RunSequences.none();
        for (long s = 0; s <= 40; s++) {
            RunSequences.accept(state, START, 7, s);
        }
        assertThat(RunSequences.accept(state, START + 60_000, 8, 0)).isZero();
        assertThat(RunSequences.accept(state, START + 60_000, 8, 3)).isEqualTo(2);
        assertThat(RunSequences.accept(state, START, 7, 41)).as("a straggler of the old run").isZero();
        assertThat(RunSequences.accept(state, START + 60_000, 8, 4)).isZero();
        assertThat(state).containsExactly(START + 60_000, 8, 4);
    }

    @Test
    void aFirstBatchInTheMiddleOfARunIsNoGap() {
        assertThat(RunSequences.accept(RunSequences.none(), START, 7, 1_234)).isZero();
    }

    /**
     * Random executions: runs one after another, each sending its numbers in order with random
     * losses and repeats (a batch in flight at exit arrives twice), and stragglers of earlier runs
     * in between. The reference counts, per run, the numbers missing between its first batch and
     * its highest.
     */
    @Test
    void agreesWithCountingTheMissingNumbersOfEachRunOnRandomStreams() {
        for (int seed = 0; seed < 500; seed++) {
            Random random = new Random(seed);
            List<long[]> arrivals = new ArrayList<>(); // {start, pid, sequence}
            Map<Long, TreeSet<Long>> seenByRun = new LinkedHashMap<>();
            int runs = 1 + random.nextInt(4);
            for (int r = 0; r < runs; r++) {
                long start = START + r * 1_000L + random.nextInt(2); // never two runs in one millisecond
                long first = r == 0 ? random.nextInt(50) : 0;
                TreeSet<Long> seen = new TreeSet<>();
                for (long s = first; s < first + 1 + random.nextInt(60); s++) {
                    if (s != first && random.nextInt(5) == 0) {
                        continue; // lost
                    }
                    int copies = random.nextInt(10) == 0 ? 2 : 1;
                    for (int c = 0; c < copies; c++) {
                        arrivals.add(new long[] {start, r, s});
                    }
                    seen.add(s);
                    if (r > 0 && random.nextInt(8) == 0) {
                        arrivals.add(new long[] {START + random.nextInt(r) * 1_000L, random.nextInt(r), 999});
                    }
                }
                seenByRun.put(start, seen);
            }
            long expected = 0;
            for (TreeSet<Long> seen : seenByRun.values()) {
                expected += seen.last() - seen.first() + 1 - seen.size();
            }

            long[] state = RunSequences.none();
            long counted = 0;
            for (long[] a : arrivals) {
                counted += RunSequences.accept(state, a[0], a[1], a[2]);
            }
            assertThat(counted).as("seed %d", seed).isEqualTo(expected);
        }
    }
}
