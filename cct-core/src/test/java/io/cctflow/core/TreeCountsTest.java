package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class TreeCountsTest {

    private static Cct tree(RandomStacks data, int from, int to) {
        Cct tree = new Cct(16);
        for (int s = from; s < to; s++) {
            tree.addStack(data.methods().get(s), data.lines().get(s), data.methods().get(s).length,
                    tree.thread(data.threads().get(s)), data.counts().get(s));
        }
        return tree;
    }

    /** Counts of the union of two sample sets = sum of the counts of each: windows and instances add up. */
    @Property(tries = 200)
    void countsOfAllSamplesEqualTheSumOfCountsOfAPartition(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 200) int stacks, @ForAll @IntRange(min = 0, max = 200) int cut) {
        RandomStacks data = RandomStacks.generate(seed, stacks, 10, 4);
        int split = Math.min(cut, stacks);
        TreeCounts whole = TreeCounts.of(data.toTree());
        TreeCounts sum = TreeCounts.of(tree(data, 0, split)).plus(TreeCounts.of(tree(data, split, stacks)));
        assertThat(sum).isEqualTo(whole);
        assertThat(whole.samples()).isEqualTo(data.totalSamples());
    }

    /** The one-pass sum of many parts (some empty) equals folding them with plus, and the counts of all samples. */
    @Property(tries = 200)
    void sumOfManyPartsEqualsTheFoldOfPlus(@ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int stacks,
            @ForAll @IntRange(min = 1, max = 40) int parts) {
        RandomStacks data = RandomStacks.generate(seed, stacks, 12, 5);
        java.util.Random random = new java.util.Random(seed);
        List<TreeCounts> counts = new ArrayList<>();
        int from = 0;
        for (int p = 0; p < parts; p++) {
            int to = p == parts - 1 ? stacks : from + random.nextInt(stacks - from + 1);
            counts.add(TreeCounts.of(tree(data, from, to)));
            from = to;
        }
        TreeCounts fold = TreeCounts.empty();
        for (TreeCounts c : counts) {
            fold = fold.plus(c);
        }
        assertThat(TreeCounts.sum(counts)).isEqualTo(fold);
        assertThat(TreeCounts.sum(counts)).isEqualTo(TreeCounts.of(data.toTree()));
    }

    /**
     * Counts summed as they arrive ({@link RunningCounts}) equal their one-pass sum, names and raw
     * names included: parts of a partition (new nodes keep arriving: merged) and repeats of earlier
     * parts (nothing new: added in place), some empty, some with raw thread names.
     */
    @Property(tries = 200)
    void runningSumEqualsTheOnePassSum(@ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int stacks,
            @ForAll @IntRange(min = 0, max = 60) int parts) {
        RandomStacks data = RandomStacks.generate(seed, stacks, 12, 5);
        java.util.Random random = new java.util.Random(seed);
        List<TreeCounts> counts = new ArrayList<>();
        int from = 0;
        for (int p = 0; p < parts; p++) {
            TreeCounts c;
            if (!counts.isEmpty() && random.nextInt(3) == 0) {
                c = counts.get(random.nextInt(counts.size()));
            } else {
                int to = p == parts - 1 ? stacks : from + random.nextInt(stacks - from + 1);
                c = TreeCounts.of(tree(data, from, to));
                from = to;
            }
            if (random.nextInt(4) == 0) {
                c = c.withRawThreadNames(RawThreadNames.of("pool-1-thread-" + random.nextInt(20), "main"));
            }
            counts.add(c);
        }
        RunningCounts running = new RunningCounts();
        counts.forEach(running::add);

        assertThat(running.counts()).isEqualTo(TreeCounts.sum(counts));
    }

    /**
     * Counts of a part of the samples taken over a tree that already holds other stacks (and gains
     * nodes meanwhile) = counts of a fresh tree with only that part: {@link StackCounts} against the
     * tree-per-batch reference.
     */
    @Property(tries = 200)
    void stackCountsOverAnExistingTreeEqualTheCountsOfAFreshTree(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 200) int stacks, @ForAll @IntRange(min = 0, max = 200) int cut) {
        RandomStacks data = RandomStacks.generate(seed, stacks, 10, 4);
        int split = Math.min(cut, stacks);
        Cct existing = tree(data, 0, split);
        StackCounts counts = new StackCounts(existing);
        for (int s = split; s < stacks; s++) {
            counts.addStack(data.methods().get(s), data.lines().get(s), data.methods().get(s).length,
                    counts.thread(data.threads().get(s)), data.counts().get(s));
        }

        assertThat(TreeCounts.of(counts)).isEqualTo(TreeCounts.of(tree(data, split, stacks)));
        assertThat(counts.samples()).isEqualTo(TreeCounts.of(tree(data, split, stacks)).samples());
    }

    /** Counts reset onto another tree (arrays kept) = counts made afresh on that tree. */
    @Property(tries = 100)
    void resetCountsEqualFreshCounts(@ForAll long seed, @ForAll @IntRange(min = 0, max = 150) int stacks) {
        RandomStacks first = RandomStacks.generate(seed, stacks, 10, 4);
        RandomStacks second = RandomStacks.generate(seed + 1, stacks / 2, 12, 5);
        StackCounts counts = new StackCounts(first.toTree());
        add(counts, first);
        Cct other = tree(second, 0, second.methods().size() / 2);
        StackCounts fresh = new StackCounts(other);
        add(counts.reset(other), second);
        add(fresh, second);

        assertThat(TreeCounts.of(counts)).isEqualTo(TreeCounts.of(fresh));
        assertThat(counts.samples()).isEqualTo(fresh.samples());
    }

    private static void add(StackCounts counts, RandomStacks data) {
        for (int s = 0; s < data.methods().size(); s++) {
            counts.addStack(data.methods().get(s), data.lines().get(s), data.methods().get(s).length,
                    counts.thread(data.threads().get(s)), data.counts().get(s));
        }
    }

    /** Charging a leaf already in the tree by its path = merging the stack that ends there. */
    @Property(tries = 100)
    void addPathChargesTheLeafAndItsAncestors(@ForAll long seed, @ForAll @IntRange(min = 1, max = 100) int stacks) {
        RandomStacks data = RandomStacks.generate(seed, stacks, 10, 4);
        Cct existing = data.toTree();
        StackCounts byPath = new StackCounts(existing);
        for (int s = 0; s < stacks; s++) {
            long[] methods = data.methods().get(s);
            int leaf = Cct.ROOT;
            for (int i = 0; i < methods.length; i++) {
                leaf = existing.child(leaf, methods[i], data.lines().get(s)[i]);
            }
            byPath.addPath(leaf, byPath.thread(data.threads().get(s)), data.counts().get(s));
        }

        assertThat(TreeCounts.of(byPath)).isEqualTo(TreeCounts.of(data.toTree()));
    }

    /** Method samples of m = samples whose stack contains m; self samples = samples whose leaf is m. */
    @Property(tries = 200)
    void methodAggregatesEqualPerSampleCounts(@ForAll long seed) {
        RandomStacks data = RandomStacks.generate(seed, 150, 12, 4);
        Map<Long, long[]> expected = new HashMap<>();
        for (int s = 0; s < data.methods().size(); s++) {
            long[] stack = data.methods().get(s);
            long count = data.counts().get(s);
            Set<Long> distinct = new HashSet<>();
            for (long m : stack) {
                distinct.add(m);
            }
            for (long m : distinct) {
                expected.computeIfAbsent(m, k -> new long[2])[0] += count;
            }
            if (stack.length > 0) {
                expected.get(stack[stack.length - 1])[1] += count;
            }
        }
        TreeCounts counts = TreeCounts.of(data.toTree());
        Map<Long, long[]> actual = new HashMap<>();
        for (int i = 0; i < counts.methodIds().length; i++) {
            actual.put(counts.methodIds()[i], new long[] {counts.methodSamples()[i], counts.methodSelf()[i]});
        }
        assertThat(actual).usingRecursiveComparison().isEqualTo(expected);
    }

    @Test
    void threadRowsAreKeyedByStableIdsOfNormalisedNames() {
        long work = MethodId.of("App", "work", "()V");
        Cct tree = new Cct();
        tree.addStack(new long[] {work}, new int[] {0}, 1, tree.thread("pool-1-thread-1"), 2);
        tree.addStack(new long[] {work}, new int[] {0}, 1, tree.thread("pool-1-thread-9"), 3);
        TreeCounts counts = TreeCounts.of(tree);
        long pool = ThreadNames.id("pool-7-thread-7");
        assertThat(counts.threadIds()).containsExactly(pool);
        assertThat(counts.threadSelf()).containsExactly(5);
        assertThat(counts.threadName(pool)).isEqualTo("pool-#-thread-#");
        assertThat(counts.threadNodeIds()).containsExactly(NodeId.child(NodeId.ROOT, work, 0));
    }

    @Test
    void storedColumnsAreCheckedAndRoundTrip() {
        TreeCounts counts = TreeCounts.of(RandomStacks.generate(3, 50, 8, 3).toTree());
        TreeCounts copy = TreeCounts.of(counts.nodeIds(), counts.self(), counts.total(), counts.threadNodeIds(),
                counts.threadIds(), counts.threadSelf(), counts.threadDictIds(), counts.threadDictNames(),
                counts.methodIds(), counts.methodSamples(), counts.methodSelf());
        assertThat(copy).isEqualTo(counts);
        assertThatThrownBy(() -> TreeCounts.of(new long[] {2, 1}, new long[2], new long[2], new long[0], new long[0],
                new long[0], new long[0], new String[0], new long[0], new long[0], new long[0]))
                .hasMessageContaining("node counts: rows not sorted");
        assertThatThrownBy(() -> TreeCounts.of(new long[] {1}, new long[2], new long[1], new long[0], new long[0],
                new long[0], new long[0], new String[0], new long[0], new long[0], new long[0]))
                .hasMessageContaining("node counts: columns of different lengths");
        assertThat(TreeCounts.empty().plus(counts)).isSameAs(counts);
    }
}
