package io.cctflow.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random stack samples over a small method alphabet, so paths share prefixes and recurse often.
 * Each has a raw thread name from a small set in which several names normalise to one pool name,
 * and null (no name) occurs.
 */
record RandomStacks(List<long[]> methods, List<int[]> lines, List<Long> counts, List<String> threads) {
    static final String[] RAW_THREADS = {"main", "pool-1-thread-1", "pool-1-thread-2", "pool-2-thread-17",
        "http-nio-8080-exec-3", "worker", null};

    static RandomStacks generate(long seed, int stacks, int maxDepth, int alphabet) {
        Random random = new Random(seed);
        List<long[]> methods = new ArrayList<>();
        List<int[]> lines = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        List<String> threads = new ArrayList<>();
        for (int s = 0; s < stacks; s++) {
            int depth = random.nextInt(maxDepth + 1);
            long[] m = new long[depth];
            int[] l = new int[depth];
            for (int i = 0; i < depth; i++) {
                m[i] = MethodId.of("C" + random.nextInt(alphabet), "m", "()V");
                l[i] = i == 0 ? 0 : random.nextInt(3);
            }
            methods.add(m);
            lines.add(l);
            counts.add(1L + random.nextInt(5));
            threads.add(RAW_THREADS[random.nextInt(RAW_THREADS.length)]);
        }
        return new RandomStacks(methods, lines, counts, threads);
    }

    Cct toTree() {
        Cct tree = new Cct(16); // small on purpose: exercises growth
        for (int s = 0; s < methods.size(); s++) {
            tree.addStack(methods.get(s), lines.get(s), methods.get(s).length, tree.thread(threads.get(s)),
                    counts.get(s));
        }
        return tree;
    }

    long totalSamples() {
        return counts.stream().mapToLong(Long::longValue).sum();
    }
}
