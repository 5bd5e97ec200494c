package io.cctflow.bench.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.bench.pipeline.StackCorpus;
import io.cctflow.core.Cct;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CorpusStacksTest {

    @Test
    void methodsForTheMetricsCallsAreDistinctAndResolvable() {
        List<String> methods = QueryTimings.methods(new CorpusStacks(StackCorpus.load()), 23);

        assertThat(methods).hasSize(23).doesNotHaveDuplicates()
                .allMatch(m -> m.matches("[\\w.$]+\\.[\\w$]+"));
    }

    @Test
    void corpusStacksMergeAsTheSamplesJobMergesThem() {
        CorpusStacks stacks = new CorpusStacks(StackCorpus.load());
        Random random = new Random(3);
        Cct tree = new Cct();
        long samples = 0;
        for (int i = 0; i < 500; i++) {
            int s = stacks.corpus().draw(random);
            stacks.add(tree, s, 2);
            samples += 2;
        }
        assertThat(tree.total(Cct.ROOT)).isEqualTo(samples);
        long self = 0;
        for (int n = 0; n < tree.size(); n++) {
            self += tree.self(n);
        }
        assertThat(self).isEqualTo(samples);
        assertThat(CorpusStacks.nodes(tree)).hasSize(tree.size() - 1)
                .allMatch(r -> r.depth() >= 1 && tree.indexOf(r.parentId()) >= 0);
    }
}
