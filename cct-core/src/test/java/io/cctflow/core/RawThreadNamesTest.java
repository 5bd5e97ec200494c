package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class RawThreadNamesTest {

    /** Random raw names of a few pools, with repeats: e.g. pool-2-thread-13, http-nio-8080-exec-4, main. */
    private static List<String> randomNames(Random random, int n) {
        String[] shapes = {"pool-%d-thread-%d", "http-nio-%d-exec-%d", "worker-%d", "main", "ForkJoinPool-%d-worker-%d"};
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String shape = shapes[random.nextInt(shapes.length)];
            names.add(String.format(shape, random.nextInt(3), random.nextInt(30)));
        }
        return names;
    }

    /** Brute force: per pool (normalised name), its distinct names in string order, the first MAX_PER_POOL. */
    private static Map<String, List<String>> expected(List<String> names) {
        Map<String, TreeSet<String>> byPool = new TreeMap<>();
        for (String name : names) {
            byPool.computeIfAbsent(ThreadNames.normalise(name), p -> new TreeSet<>()).add(name);
        }
        Map<String, List<String>> out = new TreeMap<>();
        byPool.forEach((pool, set) -> out.put(pool, new ArrayList<>(set).subList(0, Math.min(set.size(),
                RawThreadNames.MAX_PER_POOL))));
        return out;
    }

    @Test
    void keepsTheSmallestNamesOfEachPoolWithinTheBound() {
        Random random = new Random(29);
        for (int round = 0; round < 300; round++) {
            List<String> names = randomNames(random, random.nextInt(200));
            RawThreadNames raw = RawThreadNames.of(names);
            Map<String, List<String>> expected = expected(names);
            int kept = 0;
            for (Map.Entry<String, List<String>> e : expected.entrySet()) {
                assertThat(raw.namesOf(ThreadNames.id(e.getKey()))).as("pool %s of %s", e.getKey(), names)
                        .isEqualTo(e.getValue());
                kept += e.getValue().size();
            }
            assertThat(raw.names()).hasSize(kept);
            assertThat(raw.namesOf(ThreadNames.id("no-such-pool-#"))).isEmpty();
        }
    }

    @Test
    void unionIsTheSameInAnyOrderAndGrouping() {
        Random random = new Random(32);
        for (int round = 0; round < 300; round++) {
            List<String> names = randomNames(random, random.nextInt(200));
            RawThreadNames whole = RawThreadNames.of(names);
            // split into random parts, bounded each (as batches are), summed in a random order
            List<RawThreadNames> parts = new ArrayList<>();
            for (int from = 0; from < names.size();) {
                int to = Math.min(names.size(), from + 1 + random.nextInt(40));
                parts.add(RawThreadNames.of(names.subList(from, to)));
                from = to;
            }
            Collections.shuffle(parts, random);
            assertThat(RawThreadNames.union(parts)).isEqualTo(whole);
            RawThreadNames folded = RawThreadNames.empty();
            for (RawThreadNames p : parts) {
                folded = folded.plus(p);
            }
            assertThat(folded).isEqualTo(whole);
        }
    }

    @Test
    void treeCountsSumTheirRawNamesAsAUnion() {
        TreeCounts a = rootOnly(1).withRawThreadNames(RawThreadNames.of("pool-1-thread-1", "main"));
        TreeCounts b = rootOnly(2).withRawThreadNames(RawThreadNames.of("pool-1-thread-2"));
        RawThreadNames all = RawThreadNames.of("main", "pool-1-thread-1", "pool-1-thread-2");
        assertThat(TreeCounts.sum(List.of(a, b)).rawThreadNames()).isEqualTo(all);
        assertThat(a.plus(b).rawThreadNames()).isEqualTo(all);
        assertThat(rootOnly(3).rawThreadNames().isEmpty()).isTrue();
    }

    private static TreeCounts rootOnly(long samples) {
        long[] none = new long[0];
        return TreeCounts.of(new long[] {NodeId.ROOT}, new long[] {0}, new long[] {samples}, none, none, none, none,
                new String[0], none, none, none);
    }
}
