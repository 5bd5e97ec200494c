package io.cctflow.bench.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.bench.pipeline.StackCorpus;
import io.cctflow.core.Cct;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.SelfCounts;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WindowDrawsTest {
    private static final CorpusStacks STACKS = new CorpusStacks(StackCorpus.load());

    @Test
    void drawsTheProjectionOfTheTreeOfTheSameDraws() {
        WindowDraws draws = new WindowDraws(STACKS);
        for (int samples : new int[] {1, 2, 100, 6000}) {
            for (long seed = 0; seed < 5; seed++) {
                TreeCounts drawn = draws.draw(new Random(seed), samples);

                assertThat(drawn).as("%d samples, seed %d", samples, seed).isEqualTo(reference(new Random(seed), samples));
                assertThat(drawn.samples()).isEqualTo(samples);
            }
        }
    }

    /** The stacks the same draws give, merged into a fresh tree as the samples job merges them, projected. */
    private static TreeCounts reference(Random random, int samples) {
        Cct tree = new Cct();
        for (int i = 0; i < samples; i++) {
            STACKS.add(tree, STACKS.corpus().draw(random), 1);
        }
        return SelfCounts.project(TreeCounts.of(tree));
    }
}
