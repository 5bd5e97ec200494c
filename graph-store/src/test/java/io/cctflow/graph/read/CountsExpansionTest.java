package io.cctflow.graph.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.TreeCounts;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.graph.PackedWindow;
import io.cctflow.graph.RandomTrees;
import io.cctflow.graph.SelfCounts;
import io.cctflow.model.NodeRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link CountsExpansion} against the stored-total layout ({@link TreeCounts#of(Cct)}, what windows
 * held before format 2): on random trees with recursion and several threads, a projected window
 * expands to the tables the tree gives (totals, per-method samples and self, per-thread rows), and
 * a sum of projected windows (as the samples job, the roll-up pass and range reads sum them, packed
 * and unpacked on the way) expands to the sum of the whole tables.
 */
class CountsExpansionTest {

    @Property(tries = 300)
    void aProjectedWindowExpandsToItsWholeTables(@ForAll long seed, @ForAll @IntRange(min = 0, max = 150) int stacks) {
        Cct tree = RandomTrees.tree(new Random(seed), stacks);
        TreeCounts whole = RandomTrees.counts(tree);
        TreeCounts projected = SelfCounts.project(whole);

        assertThat(SelfCounts.isProjected(projected)).isTrue();
        assertThat(projected.methodIds()).isEmpty();
        assertThat(projected.samples()).isEqualTo(whole.samples());
        assertThat(CountsExpansion.expand(projected, RandomTrees.topology(tree)::get)).isEqualTo(whole);
        assertThat(CountsExpansion.expand(whole, RandomTrees.topology(tree)::get)).as("whole counts of the layouts before")
                .isEqualTo(whole);
    }

    @Property(tries = 200)
    void theSumOfProjectionsExpandsToTheSumOfTheWholeTables(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 6) int windows, @ForAll @IntRange(min = 0, max = 80) int stacks) {
        Random random = new Random(seed);
        List<TreeCounts> whole = new ArrayList<>();
        List<TreeCounts> stored = new ArrayList<>();
        Map<Long, NodeRecord> topology = new HashMap<>();
        for (int w = 0; w < windows; w++) {
            Cct tree = RandomTrees.tree(random, random.nextInt(stacks + 1));
            whole.add(RandomTrees.counts(tree));
            stored.add(PackedWindow.unpack(PackedWindow.pack(SelfCounts.project(whole.get(w)))));
            topology.putAll(RandomTrees.topology(tree));
        }
        TreeCounts summed = TreeCounts.sum(stored);
        assertThat(SelfCounts.project(TreeCounts.sum(whole))).as("projection commutes with sums").isEqualTo(summed);
        assertThat(CountsExpansion.expand(summed, topology::get)).isEqualTo(TreeCounts.sum(whole));
    }

    @Property(tries = 200)
    void theMethodTablesOfManyCountsAreThoseOfTheirExpansions(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 8) int counts, @ForAll @IntRange(min = 0, max = 60) int stacks,
            @ForAll @IntRange(min = 0, max = 3) int unstored) {
        Random random = new Random(seed);
        List<TreeCounts> stored = new ArrayList<>();
        Map<Long, NodeRecord> topology = new HashMap<>();
        for (int c = 0; c < counts; c++) {
            Cct tree = RandomTrees.tree(random, random.nextInt(stacks + 1)); // 0 stacks: empty counts
            TreeCounts whole = RandomTrees.counts(tree);
            stored.add(random.nextBoolean() ? SelfCounts.project(whole) : whole);
            topology.putAll(RandomTrees.topology(tree));
        }
        List<Long> ids = new ArrayList<>(topology.keySet());
        for (int k = 0; k < unstored && !ids.isEmpty(); k++) { // orphans: a node's topology (or an ancestor's) missing
            topology.remove(ids.remove(random.nextInt(ids.size())));
        }

        List<MethodSamples> tables = CountsExpansion.methodSamples(stored, topology::get);

        assertThat(tables).hasSize(counts);
        for (int c = 0; c < counts; c++) {
            MethodSamples expected = MethodSamples.of(CountsExpansion.expand(stored.get(c), topology::get));
            assertThat(tables.get(c).methodIds()).as("count %d", c).isEqualTo(expected.methodIds());
            assertThat(tables.get(c).methodSamples()).as("count %d", c).isEqualTo(expected.methodSamples());
            assertThat(tables.get(c).selfSamples()).as("count %d", c).isEqualTo(expected.selfSamples());
            assertThat(tables.get(c).samples()).as("count %d", c).isEqualTo(expected.samples());
        }
    }

    @Example
    void aNodeWithoutStoredTopologyKeepsItsOwnRowAndCountsInTheRoot() {
        Cct tree = RandomTrees.tree(new Random(7), 20);
        Map<Long, NodeRecord> topology = RandomTrees.topology(tree);
        int leaf = tree.size() - 1; // the last node created: a leaf, with self counts
        topology.remove(tree.id(leaf));
        TreeCounts whole = RandomTrees.counts(tree);

        TreeCounts expanded = CountsExpansion.expand(SelfCounts.project(whole), topology::get);

        assertThat(expanded.samples()).isEqualTo(whole.samples());
        int row = java.util.Arrays.binarySearch(expanded.nodeIds(), tree.id(leaf));
        assertThat(new long[] {expanded.self()[row], expanded.total()[row]})
                .containsExactly(tree.self(leaf), tree.self(leaf));
    }
}
