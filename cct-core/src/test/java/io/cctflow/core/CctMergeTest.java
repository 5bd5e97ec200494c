package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class CctMergeTest {

    /** A path prefix as a comparable key: (method, line) pairs from the root. */
    private static List<Long> prefix(long[] methods, int[] lines, int length) {
        List<Long> key = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            key.add(methods[i]);
            key.add((long) lines[i]);
        }
        return key;
    }

    private static List<Long> pathOf(Cct tree, int node) {
        List<Long> reversed = new ArrayList<>();
        for (int n = node; n != Cct.ROOT; n = tree.parent(n)) {
            reversed.add((long) tree.callSiteLine(n));
            reversed.add(tree.method(n));
        }
        List<Long> path = new ArrayList<>();
        for (int i = reversed.size() - 1; i >= 0; i--) {
            path.add(reversed.get(i));
        }
        return path;
    }

    @Property(tries = 200)
    void mergedCountsEqualBruteForceCountsPerPathPrefix(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int stacks) {
        RandomStacks data = RandomStacks.generate(seed, stacks, 12, 4);
        Cct tree = data.toTree();

        // reference: every distinct prefix with the samples through it and ending at it
        Map<List<Long>, long[]> expected = new HashMap<>();
        for (int s = 0; s < stacks; s++) {
            long[] m = data.methods().get(s);
            int[] l = data.lines().get(s);
            long c = data.counts().get(s);
            for (int len = 1; len <= m.length; len++) {
                long[] st = expected.computeIfAbsent(prefix(m, l, len), k -> new long[2]);
                st[1] += c;
                if (len == m.length) {
                    st[0] += c;
                }
            }
        }

        assertThat(tree.size() - 1).isEqualTo(expected.size());
        assertThat(tree.total(Cct.ROOT)).isEqualTo(data.totalSamples());
        assertThat(tree.collisions()).isZero();
        for (int n = 1; n < tree.size(); n++) {
            long[] st = expected.get(pathOf(tree, n));
            assertThat(st).as("node %d path %s", n, pathOf(tree, n)).isNotNull();
            assertThat(new long[] {tree.self(n), tree.total(n)}).isEqualTo(st);
            assertThat(tree.parent(n)).isLessThan(n);
            assertThat(tree.depth(n)).isEqualTo(tree.depth(tree.parent(n)) + 1);
        }
    }

    /**
     * {@link Cct#leaf} (one lookup by path id, or a walk for a new leaf) against the frame-by-frame
     * walk with {@link Cct#child}: the same leaf for every stack, new or repeated, and the same
     * nodes created in the same order; a leaf's path is the stack.
     */
    @Property(tries = 200)
    void leafEqualsTheFrameByFrameWalk(@ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int stacks) {
        leafEqualsTheWalk(RandomStacks.generate(seed, stacks, 12, 4), stacks);
    }

    /** As above with deep stacks (up to 150 frames), as the JVMs of real services have. */
    @Property(tries = 50)
    void leafEqualsTheFrameByFrameWalkOnDeepStacks(@ForAll long seed, @ForAll @IntRange(min = 0, max = 100) int stacks) {
        leafEqualsTheWalk(RandomStacks.generate(seed, stacks, 150, 3), stacks);
    }

    private static void leafEqualsTheWalk(RandomStacks data, int stacks) {
        Cct byLeaf = new Cct(16);
        Cct byWalk = new Cct(16);
        for (int s = 0; s < stacks; s++) {
            long[] m = data.methods().get(s);
            int[] l = data.lines().get(s);
            int walked = Cct.ROOT;
            for (int i = 0; i < m.length; i++) {
                walked = byWalk.child(walked, m[i], l[i]);
            }
            int leaf = byLeaf.leaf(m, l, m.length);
            assertThat(leaf).as("stack %d", s).isEqualTo(walked);
            assertThat(pathOf(byLeaf, leaf)).isEqualTo(prefix(m, l, m.length));
        }
        assertThat(byLeaf.size()).isEqualTo(byWalk.size());
        for (int n = 0; n < byWalk.size(); n++) {
            assertThat(byLeaf.id(n)).isEqualTo(byWalk.id(n));
            assertThat(byLeaf.parent(n)).isEqualTo(byWalk.parent(n));
            assertThat(byLeaf.recursiveParent(n)).isEqualTo(byWalk.recursiveParent(n));
        }
        assertThat(byLeaf.total(Cct.ROOT)).isZero();
    }

    @Property(tries = 200)
    void perThreadCountsEqualBruteForceCountsPerPathPrefixAndThread(
            @ForAll long seed, @ForAll @IntRange(min = 0, max = 300) int stacks) {
        RandomStacks data = RandomStacks.generate(seed, stacks, 12, 4);
        Cct tree = data.toTree();

        // reference: (prefix, normalised thread) -> {self, total}, Eq. 3.17-3.19 per sample
        Map<List<Object>, long[]> expected = new HashMap<>();
        for (int s = 0; s < stacks; s++) {
            long[] m = data.methods().get(s);
            int[] l = data.lines().get(s);
            long c = data.counts().get(s);
            String thread = ThreadNames.normalise(data.threads().get(s));
            for (int len = 0; len <= m.length; len++) {
                long[] st = expected.computeIfAbsent(List.of(prefix(m, l, len), thread), k -> new long[2]);
                st[1] += c;
                if (len == m.length) {
                    st[0] += c;
                }
            }
        }

        long entrySum = 0;
        for (int e = 0; e < tree.threadEntries(); e++) {
            entrySum += tree.threadEntrySelf(e);
        }
        assertThat(entrySum).isEqualTo(data.totalSamples());
        for (int t = 0; t < tree.threads(); t++) {
            String name = tree.threadName(t);
            assertThat(tree.thread(name)).isEqualTo(t);
            long[] totals = tree.totalsOnThread(t);
            for (int n = 0; n < tree.size(); n++) {
                long[] st = expected.getOrDefault(List.of(pathOf(tree, n), name), new long[2]);
                assertThat(new long[] {tree.selfOnThread(n, t), totals[n]}).as("node %d thread %s", n, name)
                        .isEqualTo(st);
            }
        }
        // Eq. 3.16: the thread counts of a node add up to its count
        for (int n = 0; n < tree.size(); n++) {
            long self = 0;
            for (int t = 0; t < tree.threads(); t++) {
                self += tree.selfOnThread(n, t);
            }
            assertThat(self).isEqualTo(tree.self(n));
        }
    }

    @Test
    void threadNamesAreNormalisedAndInterned() {
        Cct tree = new Cct();
        assertThat(tree.thread(null)).isEqualTo(Cct.UNKNOWN_THREAD);
        assertThat(tree.threadName(Cct.UNKNOWN_THREAD)).isEqualTo(ThreadNames.UNKNOWN);
        int pool = tree.thread("pool-1-thread-7");
        assertThat(tree.thread("pool-3-thread-12")).isEqualTo(pool);
        assertThat(tree.threadName(pool)).isEqualTo("pool-#-thread-#");
        assertThat(tree.thread("main")).isNotEqualTo(pool);
        assertThat(tree.threads()).isEqualTo(3);

        long work = MethodId.of("App", "work", "()V");
        tree.addStack(new long[] {work}, new int[] {0}, 1, 4); // no thread: unknown
        assertThat(tree.selfOnThread(tree.indexOf(NodeId.child(NodeId.ROOT, work, 0)), Cct.UNKNOWN_THREAD))
                .isEqualTo(4);
        assertThatThrownBy(() -> tree.addStack(new long[] {work}, new int[] {0}, 1, 9, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown thread id 9");
    }

    @Property(tries = 200)
    void recursiveParentIsNearestAncestorWithSameMethod(@ForAll long seed) {
        Cct tree = RandomStacks.generate(seed, 100, 15, 3).toTree();
        for (int n = 1; n < tree.size(); n++) {
            int expected = Cct.NONE;
            for (int a = tree.parent(n); a != Cct.ROOT; a = tree.parent(a)) {
                if (tree.method(a) == tree.method(n)) {
                    expected = a;
                    break;
                }
            }
            assertThat(tree.recursiveParent(n)).isEqualTo(expected);
        }
    }

    @Property(tries = 100)
    void nodeIdsArePureFunctionsOfThePath(@ForAll long seed) {
        RandomStacks data = RandomStacks.generate(seed, 50, 10, 4);
        Cct a = data.toTree();
        // the same stacks merged in reverse order give the same ids with the same counts
        Cct b = new Cct();
        for (int s = data.methods().size() - 1; s >= 0; s--) {
            b.addStack(data.methods().get(s), data.lines().get(s), data.methods().get(s).length, data.counts().get(s));
        }
        assertThat(b.size()).isEqualTo(a.size());
        for (int n = 0; n < a.size(); n++) {
            int m = b.indexOf(a.id(n));
            assertThat(m).isNotNegative();
            assertThat(b.total(m)).isEqualTo(a.total(n));
            assertThat(b.self(m)).isEqualTo(a.self(n));
        }
    }

    @Test
    void callsFromTwoLinesOfTheCallerAreTwoNodes() {
        long main = MethodId.of("App", "main", "([Ljava/lang/String;)V");
        long work = MethodId.of("App", "work", "()V");
        Cct tree = new Cct();
        tree.addStack(new long[] {main, work}, new int[] {0, 10}, 2, 3);
        tree.addStack(new long[] {main, work}, new int[] {0, 12}, 2, 1);
        tree.addStack(new long[] {main}, new int[] {0}, 1, 2);

        assertThat(tree.size()).isEqualTo(4);
        int mainNode = tree.indexOf(NodeId.child(NodeId.ROOT, main, 0));
        assertThat(tree.total(mainNode)).isEqualTo(6);
        assertThat(tree.self(mainNode)).isEqualTo(2);
        int at10 = tree.indexOf(NodeId.child(tree.id(mainNode), work, 10));
        int at12 = tree.indexOf(NodeId.child(tree.id(mainNode), work, 12));
        assertThat(new long[] {tree.self(at10), tree.self(at12)}).isEqualTo(new long[] {3, 1});
    }

    @Test
    void methodIdIsStableAcrossRuns() {
        // pinned value: changing the hash would orphan every stored node and method
        assertThat(MethodId.of("java.lang.Thread", "run", "()V")).isEqualTo(MethodId.ofSignature("java.lang.Thread.run()V"));
        assertThat(Long.toHexString(MethodId.of("java.lang.Thread", "run", "()V")))
                .isEqualTo("c015e64274f8d5a");
        assertThat(Arrays.asList(ExecutionId.fromKey(new ExecutionId("s", "v", "i").key()))).containsExactly(
                new ExecutionId("s", "v", "i"));
    }
}
