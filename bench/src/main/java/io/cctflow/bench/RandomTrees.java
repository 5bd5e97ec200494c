package io.cctflow.bench;

import io.cctflow.core.Cct;
import java.util.Random;

/** Large random CCTs for benchmarks, shaped like real ones: few distinct outer frames, more further in. */
final class RandomTrees {
    private RandomTrees() {
    }

    /** Raw thread names of the stacks: 12 threads, which normalise to 4 names. */
    static final String[] THREADS = {"main", "http-nio-8080-exec-1", "http-nio-8080-exec-2",
        "http-nio-8080-exec-3", "pool-1-thread-1", "pool-1-thread-2", "pool-1-thread-3", "pool-1-thread-4",
        "kafka-consumer-1", "kafka-consumer-2", "kafka-consumer-3", "kafka-consumer-4"};

    /**
     * Merges random stacks of depth 5..39 over {@code alphabet}, each from one of {@link #THREADS},
     * until the tree has {@code nodes} nodes. Frame d draws from the first {@code 2 + 40 d}
     * methods, so outer frames are shared.
     */
    static Cct grow(long[] alphabet, int nodes, long seed) {
        Random random = new Random(seed);
        Cct tree = new Cct(Integer.highestOneBit(nodes) << 1);
        long[] stack = new long[40];
        int[] lines = new int[40];
        int[] threads = new int[THREADS.length];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = tree.thread(THREADS[t]);
        }
        while (tree.size() < nodes) {
            int depth = 5 + random.nextInt(35);
            for (int d = 0; d < depth; d++) {
                stack[d] = alphabet[random.nextInt(Math.min(alphabet.length, 2 + d * 40))];
                lines[d] = random.nextInt(4);
            }
            tree.addStack(stack, lines, depth, threads[random.nextInt(threads.length)], 1 + random.nextInt(5));
        }
        return tree;
    }
}
