package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link Cct#topologyOnly} on random stacks (paths sharing prefixes, recursion, threads), merged
 * by {@code addStack}, {@code leaf} and {@code child} in random order: node for node the same
 * topology as a counted tree given the same calls, exactly the distinct path prefixes of the stacks
 * (brute force), and no counts.
 */
class TopologyOnlyCctTest {

    @Property(tries = 200)
    void hasTheNodesOfACountedTreeAndNoCounts(@ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int stacks) {
        RandomStacks data = RandomStacks.generate(seed, stacks, 12, 4);
        Cct counted = new Cct(16);
        Cct topology = Cct.topologyOnly(16); // small: exercises growth
        Set<List<Long>> prefixes = new HashSet<>();
        prefixes.add(List.of());
        for (int s = 0; s < stacks; s++) {
            long[] m = data.methods().get(s);
            int[] l = data.lines().get(s);
            long count = data.counts().get(s);
            switch (s % 3) {
                case 0 -> assertThat(topology.addStack(m, l, m.length, topology.thread(data.threads().get(s)), count))
                        .isEqualTo(counted.addStack(m, l, m.length, counted.thread(data.threads().get(s)), count));
                case 1 -> assertThat(topology.leaf(m, l, m.length)).isEqualTo(counted.leaf(m, l, m.length));
                default -> {
                    int a = Cct.ROOT;
                    int b = Cct.ROOT;
                    for (int i = 0; i < m.length; i++) {
                        a = topology.child(a, m[i], l[i]);
                        b = counted.child(b, m[i], l[i]);
                        assertThat(a).isEqualTo(b);
                    }
                    topology.addCounts(a, count, count);
                    topology.addThreadSelf(a, topology.thread(data.threads().get(s)), count);
                }
            }
            for (int len = 1; len <= m.length; len++) {
                Long[] prefix = new Long[2 * len];
                for (int i = 0; i < len; i++) {
                    prefix[2 * i] = m[i];
                    prefix[2 * i + 1] = (long) l[i];
                }
                prefixes.add(Arrays.asList(prefix));
            }
        }
        assertThat(topology.size()).isEqualTo(counted.size()).isEqualTo(prefixes.size());
        for (int n = 0; n < topology.size(); n++) {
            assertThat(topology.id(n)).isEqualTo(counted.id(n));
            assertThat(topology.parent(n)).isEqualTo(counted.parent(n));
            assertThat(topology.method(n)).isEqualTo(counted.method(n));
            assertThat(topology.callSiteLine(n)).isEqualTo(counted.callSiteLine(n));
            assertThat(topology.depth(n)).isEqualTo(counted.depth(n));
            assertThat(topology.recursiveParent(n)).isEqualTo(counted.recursiveParent(n));
            assertThat(topology.indexOf(counted.id(n))).isEqualTo(n);
            assertThat(topology.self(n)).isZero();
            assertThat(topology.total(n)).isZero();
        }
        assertThat(topology.threadEntries()).isZero();
        assertThat(topology.collisions()).isEqualTo(counted.collisions());
    }
}
