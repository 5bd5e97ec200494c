package io.cctflow.bench;

import io.cctflow.core.Cct;
import java.util.Random;

/** Large random CCTs for benchmarks, shaped like real ones: few distinct outer frames, more further in. */
final class RandomTrees {
    private RandomTrees() {
    }

    /**
     * Merges random stacks of depth 5..39 over {@code alphabet} until the tree has {@code nodes}
     * nodes. Frame d draws from the first {@code 2 + 40 d} methods, so outer frames are shared.
     */
    static Cct grow(long[] alphabet, int nodes, long seed) {
        Random random = new Random(seed);
        Cct tree = new Cct(Integer.highestOneBit(nodes) << 1);
        long[] stack = new long[40];
        int[] lines = new int[40];
        while (tree.size() < nodes) {
            int depth = 5 + random.nextInt(35);
            for (int d = 0; d < depth; d++) {
                stack[d] = alphabet[random.nextInt(Math.min(alphabet.length, 2 + d * 40))];
                lines[d] = random.nextInt(4);
            }
            tree.addStack(stack, lines, depth, 1 + random.nextInt(5));
        }
        return tree;
    }
}
