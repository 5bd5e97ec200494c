package io.cctflow.core.truncated;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Compares {@link TruncatedStackMerger} with a brute-force reading of seed 002 Listing 3.2 over
 * lists of frames: a tree is the set of its root-to-node paths.
 */
class TruncatedStackMergerPropertyTest {

    record Frame(long method, int line) {}

    /** A random workload: full stacks, and truncated ones (bottom frames cut off). */
    record Workload(List<List<Frame>> full, List<List<Frame>> truncated, List<Long> fullCounts,
            List<Long> truncatedCounts) {

        static Workload generate(long seed, int stacks, int maxDepth, int alphabet) {
            Random random = new Random(seed);
            Workload w = new Workload(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            for (int s = 0; s < stacks; s++) {
                int depth = 1 + random.nextInt(maxDepth);
                List<Frame> stack = new ArrayList<>();
                for (int i = 0; i < depth; i++) {
                    long m = MethodId.of("C" + random.nextInt(alphabet), "m", "()V");
                    stack.add(new Frame(m, i == 0 ? 0 : random.nextInt(2)));
                }
                long count = 1 + random.nextInt(5);
                if (depth > 1 && random.nextInt(3) == 0) {
                    w.truncated.add(List.copyOf(stack.subList(1 + random.nextInt(depth - 1), depth)));
                    w.truncatedCounts.add(count);
                } else {
                    w.full.add(stack);
                    w.fullCounts.add(count);
                }
            }
            return w;
        }
    }

    /** The rule written as plainly as possible: paths as lists, candidates by comparing lists. */
    static final class ReferenceTree {
        final Map<List<Frame>, long[]> counts = new HashMap<>(); // path -> {self, total}

        void add(List<Frame> path, long count) {
            for (int len = 1; len <= path.size(); len++) {
                counts.computeIfAbsent(List.copyOf(path.subList(0, len)), k -> new long[2])[1] += count;
            }
            counts.get(path)[0] += count;
        }

        /** Paths ending in a node matching pss[0..k): method only for pss[0], (method, line) after. */
        List<List<Frame>> candidates(List<Frame> pss, int k) {
            List<List<Frame>> result = new ArrayList<>();
            for (List<Frame> path : counts.keySet()) {
                if (path.size() < k) {
                    continue;
                }
                List<Frame> tail = path.subList(path.size() - k, path.size());
                if (tail.get(0).method() == pss.get(0).method() && tail.subList(1, k).equals(pss.subList(1, k))) {
                    result.add(path);
                }
            }
            return result;
        }

        MergeResult tryMerge(List<Frame> pss, long count, int threshold) {
            for (int k = 1; ; k++) {
                List<List<Frame>> candidates = candidates(pss, k);
                if (candidates.isEmpty()) {
                    return MergeResult.NO_CANDIDATE;
                }
                if (candidates.size() == 1 && k > threshold) {
                    List<Frame> full = new ArrayList<>(candidates.get(0));
                    full.addAll(pss.subList(k, pss.size()));
                    add(full, count);
                    return MergeResult.MERGED;
                }
                if (k == pss.size()) {
                    return MergeResult.AMBIGUOUS;
                }
            }
        }
    }

    private static long[] methods(List<Frame> stack) {
        return stack.stream().mapToLong(Frame::method).toArray();
    }

    private static int[] lines(List<Frame> stack) {
        return stack.stream().mapToInt(Frame::line).toArray();
    }

    private static List<Frame> pathOf(Cct tree, int node) {
        List<Frame> path = new ArrayList<>();
        for (int n = node; n != Cct.ROOT; n = tree.parent(n)) {
            path.add(0, new Frame(tree.method(n), tree.callSiteLine(n)));
        }
        return path;
    }

    /** Runs both implementations: full stacks, then truncated ones, then one retry of NO_CANDIDATE. */
    private static Map<MergeResult, Long> runAndCompare(Workload w, int threshold) {
        Cct tree = new Cct(16); // small on purpose: the index must follow the tree's growth
        ReferenceTree reference = new ReferenceTree();
        for (int s = 0; s < w.full().size(); s++) {
            List<Frame> stack = w.full().get(s);
            tree.addStack(methods(stack), lines(stack), stack.size(), w.fullCounts().get(s));
            reference.add(stack, w.fullCounts().get(s));
        }
        TruncatedStackMerger merger = new TruncatedStackMerger(threshold);
        Map<MergeResult, Long> expected = new EnumMap<>(MergeResult.class);
        List<Integer> retry = new ArrayList<>();
        for (int pass = 0; pass < 2; pass++) {
            List<Integer> todo = new ArrayList<>();
            for (int s = 0; s < w.truncated().size(); s++) {
                if (pass == 0 || retry.contains(s)) {
                    todo.add(s);
                }
            }
            retry.clear();
            for (int s : todo) {
                List<Frame> pss = w.truncated().get(s);
                long count = w.truncatedCounts().get(s);
                // the outermost frame's line is the missing caller's: give the merger noise there
                int[] noisyLines = lines(pss);
                noisyLines[0] = 1000 + s;
                MergeResult actual = merger.tryMerge(tree, methods(pss), noisyLines, pss.size(), count);
                MergeResult wanted = reference.tryMerge(pss, count, threshold);
                assertThat(actual).as("stack %d %s, pass %d", s, pss, pass).isEqualTo(wanted);
                expected.merge(wanted, 1L, Long::sum);
                if (wanted.retryable()) {
                    retry.add(s);
                }
            }
        }
        for (MergeResult r : MergeResult.values()) {
            assertThat(merger.stats().stacks(r)).as("%s attempts", r).isEqualTo(expected.getOrDefault(r, 0L));
        }
        assertThat(tree.collisions()).isZero();
        assertThat(tree.size() - 1).isEqualTo(reference.counts.size());
        long rootTotal = 0;
        for (int n = 1; n < tree.size(); n++) {
            List<Frame> path = pathOf(tree, n);
            long[] st = reference.counts.get(path);
            assertThat(st).as("node %d path %s", n, path).isNotNull();
            assertThat(new long[] {tree.self(n), tree.total(n)}).as("self, total of %s", path).isEqualTo(st);
            if (tree.parent(n) == Cct.ROOT) {
                rootTotal += tree.total(n);
            }
        }
        assertThat(tree.total(Cct.ROOT)).isEqualTo(rootTotal);
        return expected;
    }

    @Property(tries = 300)
    void mergesLikeBruteForceMaximalCommonMerging(
            @ForAll long seed,
            @ForAll @IntRange(min = 0, max = 200) int stacks,
            @ForAll @IntRange(min = 2, max = 6) int alphabet,
            @ForAll @IntRange(min = 0, max = 3) int matchThreshold) {
        runAndCompare(Workload.generate(seed, stacks, 10, alphabet), matchThreshold);
    }

    @Test
    void randomWorkloadsReachEveryOutcome() {
        // guards the property above against a generator that only ever exercises one exit
        Map<MergeResult, Long> seen = new EnumMap<>(MergeResult.class);
        for (long seed = 0; seed < 40; seed++) {
            runAndCompare(Workload.generate(seed, 150, 10, 2 + (int) (seed % 5)), (int) (seed % 4))
                    .forEach((r, n) -> seen.merge(r, n, Long::sum));
        }
        for (MergeResult r : MergeResult.values()) {
            assertThat(seen.getOrDefault(r, 0L)).as("%s outcomes over 40 workloads", r).isPositive();
        }
    }
}
