package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class MethodTimeTest {

    @Property(tries = 300)
    void methodSamplesEqualSamplesWhoseStackContainsTheMethod(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 3) int pick, @ForAll boolean pair) {
        RandomStacks data = RandomStacks.generate(seed, 200, 12, 4);
        long m = MethodId.of("C" + pick, "m", "()V");
        long other = MethodId.of("C" + ((pick + 1) % 4), "m", "()V");
        Set<Long> set = pair ? Set.of(m, other) : Set.of(m);

        long containing = 0;
        long leaf = 0;
        for (int s = 0; s < data.methods().size(); s++) {
            long[] stack = data.methods().get(s);
            long c = data.counts().get(s);
            boolean contains = false;
            for (long f : stack) {
                contains |= set.contains(f);
            }
            if (contains) {
                containing += c;
            }
            if (stack.length > 0 && set.contains(stack[stack.length - 1])) {
                leaf += c;
            }
        }

        MethodTime metrics = MethodTime.of(Scope.whole(data.toTree()), set::contains);
        assertThat(metrics.methodSamples()).isEqualTo(containing);
        assertThat(metrics.selfSamples()).isEqualTo(leaf);
        assertThat(metrics.scopeSamples()).isEqualTo(data.totalSamples());
        assertThat(metrics.methodSamples()).isLessThanOrEqualTo(metrics.scopeSamples());
    }

    @Test
    void recursionIsCountedOncePerSample() {
        long main = MethodId.of("A", "main", "()V");
        long fib = MethodId.of("A", "fib", "(I)I");
        Cct tree = new Cct();
        tree.addStack(new long[] {main, fib, fib, fib}, new int[] {0, 3, 7, 7}, 4, 5);
        tree.addStack(new long[] {main}, new int[] {0}, 1, 5);

        MethodTime metrics = MethodTime.of(Scope.whole(tree), fib);
        assertThat(metrics.methodSamples()).isEqualTo(5);
        assertThat(metrics.selfSamples()).isEqualTo(5);
        assertThat(metrics.methodTime()).isEqualTo(0.5);
        assertThat(metrics.selfTime()).isEqualTo(1.0); // Eq. 3.7: self samples / method samples
        assertThat(MethodTime.of(Scope.whole(new Cct()), id -> true).methodTime()).isZero();
    }
}
