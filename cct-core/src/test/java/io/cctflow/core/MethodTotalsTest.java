package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.MethodTotals;
import io.cctflow.core.metrics.Scope;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Every method's totals in one pass against {@link MethodTime} per method, on random recursive trees. */
class MethodTotalsTest {
    private static final int ALPHABET = 6;

    @Property(tries = 200)
    void everyMethodsTotalsEqualMethodTimeInEveryKindOfScope(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 2) int kind) {
        RandomStacks data = RandomStacks.generate(seed, 150, 12, ALPHABET);
        Cct tree = data.toTree();
        Scope scope = switch (kind) {
            case 0 -> Scope.whole(tree);
            case 1 -> Scope.dynamicTaskRoot(tree, MethodId.of("C" + Math.floorMod(seed, ALPHABET), "m", "()V"));
            default -> {
                Random random = new Random(seed);
                boolean[] selected = new boolean[tree.size()];
                for (int i = 1; i < tree.size(); i++) {
                    selected[i] = random.nextInt(8) == 0;
                }
                yield Scope.below(tree, selected);
            }
        };
        MethodTotals totals = MethodTotals.of(scope);
        Set<Long> inScope = new HashSet<>();
        for (int i = 1; i < tree.size(); i++) {
            if (scope.contains(i)) {
                inScope.add(tree.method(i));
            }
        }
        assertThat(totals.size()).isEqualTo(inScope.size());
        assertThat(totals.scopeSamples()).isEqualTo(scope.rootSamples());
        for (int k = 0; k < totals.size(); k++) {
            MethodTime expected = MethodTime.of(scope, totals.methodId(k));
            assertThat(totals.methodSamples(k)).as("method samples of %d", totals.methodId(k))
                    .isEqualTo(expected.methodSamples());
            assertThat(totals.selfSamples(k)).as("self samples of %d", totals.methodId(k))
                    .isEqualTo(expected.selfSamples());
        }
    }

    @Property(tries = 100)
    void topListsTheLargestFirstByEitherCount(@ForAll long seed, @ForAll @IntRange(min = 1, max = 8) int n,
            @ForAll boolean bySelf) {
        MethodTotals totals = MethodTotals.of(Scope.whole(RandomStacks.generate(seed, 100, 10, ALPHABET).toTree()));
        List<long[]> all = new ArrayList<>(); // {first, second, id}
        for (int k = 0; k < totals.size(); k++) {
            long self = totals.selfSamples(k);
            long method = totals.methodSamples(k);
            all.add(new long[] {bySelf ? self : method, bySelf ? method : self, totals.methodId(k)});
        }
        all.sort(Comparator.<long[]>comparingLong(r -> -r[0]).thenComparingLong(r -> -r[1])
                .thenComparingLong(r -> r[2]));
        int[] top = totals.top(n, bySelf);
        assertThat(top).hasSize(Math.min(n, totals.size()));
        for (int k = 0; k < top.length; k++) {
            assertThat(totals.methodId(top[k])).isEqualTo(all.get(k)[2]);
        }
    }
}
