package io.cctflow.graph;

import io.cctflow.core.Cct;
import io.cctflow.core.RawThreadNames;
import io.cctflow.core.TreeCounts;
import io.cctflow.model.NodeRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Random trees for properties of stored counts: few methods (so recursion and shared prefixes occur), several threads. */
public final class RandomTrees {
    /** Thread names the stacks run on, one of them not ASCII. */
    public static final String[] THREADS = {"main", "pool-1-thread-1", "pool-1-thread-7", "worker-3", "Ünïcode-₂"};

    private RandomTrees() {
    }

    /** A tree of {@code stacks} random stacks (1 to 12 frames over 8 methods) on random threads. */
    public static Cct tree(Random random, int stacks) {
        Cct tree = new Cct(16);
        for (int s = 0; s < stacks; s++) {
            int depth = 1 + random.nextInt(12);
            long[] methods = new long[depth];
            int[] lines = new int[depth];
            for (int d = 0; d < depth; d++) {
                methods[d] = 1 + random.nextInt(8) * 0x1234_5678_9ABCL;
                lines[d] = random.nextInt(5) - 1;
            }
            tree.addStack(methods, lines, depth, tree.thread(THREADS[random.nextInt(THREADS.length)]),
                    1 + random.nextInt(3));
        }
        return tree;
    }

    /** The tree's counts, with its thread names as raw names. */
    public static TreeCounts counts(Cct tree) {
        List<String> raw = new ArrayList<>();
        for (int t = 0; t < tree.threads(); t++) {
            raw.add(tree.threadName(t));
        }
        return TreeCounts.of(tree).withRawThreadNames(RawThreadNames.of(raw));
    }

    /** The topology the samples job stores for the tree's nodes (the root apart), by id. */
    public static Map<Long, NodeRecord> topology(Cct tree) {
        Map<Long, NodeRecord> out = new HashMap<>();
        for (int n = 1; n < tree.size(); n++) {
            int rp = tree.recursiveParent(n);
            out.put(tree.id(n), new NodeRecord(tree.id(n), tree.id(tree.parent(n)), tree.method(n),
                    tree.callSiteLine(n), tree.depth(n), rp == Cct.NONE ? NodeRecord.NO_RECURSIVE_PARENT : tree.id(rp)));
        }
        return out;
    }
}
