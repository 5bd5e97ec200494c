package io.cctflow.core.migration;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class MethodContextsTest {

    @Property(tries = 300)
    void everyMethodPathKeepsTheSumOfItsNodesCounts(@ForAll long seed, @ForAll @IntRange(min = 0, max = 40) int stacks) {
        Cct tree = MigrationTrees.random(seed, stacks, 6, 4);

        // brute force: the method path of every node, counts summed per path
        Map<List<Long>, long[]> expected = new HashMap<>();
        for (int n = 1; n < tree.size(); n++) {
            long[] c = expected.computeIfAbsent(methodPath(tree, n), k -> new long[2]);
            c[0] += tree.self(n);
            c[1] += tree.total(n);
        }

        Cct byMethods = MethodContexts.of(tree);
        Map<List<Long>, long[]> actual = new HashMap<>();
        for (int n = 1; n < byMethods.size(); n++) {
            assertThat(byMethods.callSiteLine(n)).isZero();
            assertThat(actual.put(methodPath(byMethods, n), new long[] {byMethods.self(n), byMethods.total(n)}))
                    .as("one node per method path").isNull();
        }
        assertThat(actual).hasSameSizeAs(expected);
        expected.forEach((path, c) -> assertThat(actual.get(path)).as("%s", path).containsExactly(c));
        assertThat(byMethods.total(Cct.ROOT)).isEqualTo(tree.total(Cct.ROOT));
        assertThat(byMethods.collisions()).isZero();
    }

    @Test
    void contextsWhoseLinesMovedBetweenReleasesMatchOnlyByMethods() {
        // the same calls, the caller's call-site line moved by the new release (code above it changed)
        Cct old = new Cct();
        old.addStack(new long[] {1, 2, 3}, new int[] {10, 20, 30}, 3, 40);
        Cct moved = new Cct();
        moved.addStack(new long[] {1, 2, 3}, new int[] {10, 59, 30}, 3, 40);
        Migration byLines = ProfileMigration.migrate(old, ChangeList.NONE, ImpactAnalysis.AG, new Cct());
        assertThat(MigrationQuality.of(byLines, moved, ShareTolerance.sampling(2)).correctEntries()).isEqualTo(1);

        Migration byMethods = ProfileMigration.migrate(MethodContexts.of(old), ChangeList.NONE, ImpactAnalysis.AG, new Cct());
        MigrationQuality q = MigrationQuality.of(byMethods, MethodContexts.of(moved), ShareTolerance.sampling(2));
        assertThat(q.correctEntries()).isEqualTo(3);
        assertThat(q.acc()).isEqualTo(1.0);
    }

    private static List<Long> methodPath(Cct t, int node) {
        List<Long> path = new ArrayList<>();
        for (int n = node; n != Cct.ROOT; n = t.parent(n)) {
            path.add(0, t.method(n));
        }
        return path;
    }
}
