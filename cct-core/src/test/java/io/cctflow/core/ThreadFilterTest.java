package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.metrics.MethodMetrics;
import io.cctflow.core.metrics.Scope;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A thread-filtered tree against the brute force: the tree built from the selected threads'
 * stacks alone ({@link RandomStacks}: raw names of which several normalise to one pool name, and
 * stacks without a name), node by node, and every metric of a method on it.
 */
class ThreadFilterTest {
    private static final List<Set<String>> SELECTIONS = List.of(Set.of("main"), Set.of("pool-#-thread-#"),
            Set.of("pool-#-thread-#", "http-nio-#-exec-#"), Set.of(ThreadNames.UNKNOWN), Set.of("none-such"));

    @Property(tries = 300)
    void filteredTreeEqualsTheTreeOfTheSelectedThreadsStacks(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 4) int pick, @ForAll @IntRange(min = 0, max = 3) int method) {
        RandomStacks data = RandomStacks.generate(seed, 200, 12, 4);
        Set<String> threads = SELECTIONS.get(pick);
        Cct expected = new Cct();
        for (int s = 0; s < data.methods().size(); s++) {
            String name = ThreadNames.normalise(data.threads().get(s));
            if (threads.contains(name)) {
                expected.addStack(data.methods().get(s), data.lines().get(s), data.methods().get(s).length,
                        expected.thread(name), data.counts().get(s));
            }
        }
        Cct got = ThreadFilter.of(data.toTree(), threads::contains);
        assertThat(got.size()).isEqualTo(expected.size());
        assertThat(got.total(Cct.ROOT)).isEqualTo(expected.total(Cct.ROOT));
        for (int n = 1; n < expected.size(); n++) {
            int g = got.indexOf(expected.id(n));
            assertThat(g).as("node %d", n).isPositive();
            assertThat(got.self(g)).isEqualTo(expected.self(n));
            assertThat(got.total(g)).isEqualTo(expected.total(n));
            assertThat(got.recursiveParent(g) < 0 ? 0 : got.id(got.recursiveParent(g)))
                    .isEqualTo(expected.recursiveParent(n) < 0 ? 0 : expected.id(expected.recursiveParent(n)));
            for (int t = 0; t < expected.threads(); t++) {
                assertThat(got.selfOnThread(g, got.thread(expected.threadName(t))))
                        .isEqualTo(expected.selfOnThread(n, t));
            }
        }
        long m = ScopedMetricsTest.c(method);
        MethodMetrics a = MethodMetrics.of(Scope.whole(got), m);
        MethodMetrics b = MethodMetrics.of(Scope.whole(expected), m);
        assertThat(a.time()).isEqualTo(b.time());
        assertThat(a.callees()).isEqualTo(b.callees());
        assertThat(a.callers()).isEqualTo(b.callers());
    }
}
