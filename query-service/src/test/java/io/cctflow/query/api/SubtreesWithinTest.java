package io.cctflow.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.metrics.Scope;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link Subtrees#within} (the tree of {@code /api/v1/tree?task=...}) against a brute force on
 * random trees and random task roots: every node's total is the self samples in scope anywhere in
 * its subtree, its self its own when in scope, and exactly the nodes with such samples are kept,
 * under their stored ids.
 */
class SubtreesWithinTest {
    @Property(tries = 300)
    void keepsTheScopesSamplesWithTheirCallingContexts(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 300) int size, @ForAll @IntRange(min = 0, max = 5) int roots) {
        Random random = new Random(seed);
        Cct tree = TreeColumnsTest.randomTree(random, size);
        boolean[] selected = new boolean[tree.size()];
        for (int k = 0; k < roots; k++) {
            selected[random.nextInt(tree.size())] = true;
        }
        Scope scope = Scope.below(tree, selected);

        Cct within = Subtrees.within(scope);

        Map<Long, long[]> expected = new HashMap<>(); // id -> {self, total}
        for (int i = 0; i < tree.size(); i++) {
            long total = 0;
            for (int m = 0; m < tree.size(); m++) {
                if (scope.contains(m) && isAncestorOrSelf(tree, i, m)) {
                    total += tree.self(m);
                }
            }
            if (total > 0 || i == Cct.ROOT) {
                expected.put(tree.id(i), new long[] {scope.contains(i) ? tree.self(i) : 0, total});
            }
        }
        Map<Long, long[]> got = new HashMap<>();
        for (int i = 0; i < within.size(); i++) {
            got.put(within.id(i), new long[] {within.self(i), within.total(i)});
        }
        assertThat(got.keySet()).isEqualTo(expected.keySet());
        expected.forEach((id, counts) -> assertThat(got.get(id)).as("node " + id).containsExactly(counts));
        assertThat(within.total(Cct.ROOT)).isEqualTo(scope.rootSamples());
    }

    private static boolean isAncestorOrSelf(Cct tree, int ancestor, int node) {
        for (int n = node; ; n = tree.parent(n)) {
            if (n == ancestor) {
                return true;
            }
            if (n == Cct.ROOT) {
                return false;
            }
        }
    }
}
