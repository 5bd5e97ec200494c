package io.cctflow.core.migration;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

/** Test trees for migration: "A0/B1"-style paths (method letter = id, call-site line) and random ones. */
final class MigrationTrees {
    private MigrationTrees() {}

    /** Builds a tree from paths, each with its self count, through {@link Cct#addStack}. */
    static Cct of(Object... pathsAndSelf) {
        Cct t = new Cct(16);
        for (int k = 0; k < pathsAndSelf.length; k += 2) {
            String[] frames = ((String) pathsAndSelf[k]).split("/");
            long[] m = new long[frames.length];
            int[] l = new int[frames.length];
            for (int i = 0; i < frames.length; i++) {
                m[i] = frames[i].charAt(0);
                l[i] = Integer.parseInt(frames[i].substring(1));
            }
            t.addStack(m, l, frames.length, ((Number) pathsAndSelf[k + 1]).longValue());
        }
        return t;
    }

    /** The node at a path, or -1. */
    static int node(Cct t, String path) {
        int node = Cct.ROOT;
        for (String f : path.split("/")) {
            node = find(t, node, f.charAt(0), Integer.parseInt(f.substring(1)));
            if (node < 0) {
                return -1;
            }
        }
        return node;
    }

    private static int find(Cct t, int parent, long method, int line) {
        for (int c = 1; c < t.size(); c++) {
            if (t.parent(c) == parent && t.method(c) == method && t.callSiteLine(c) == line) {
                return c;
            }
        }
        return -1;
    }

    static ChangeList modified(char... methods) {
        long[] ids = new long[methods.length];
        for (int i = 0; i < methods.length; i++) {
            ids[i] = methods[i];
        }
        return new ChangeList(new long[0], new long[0], ids);
    }

    /** A random tree over methods 1..alphabet and lines 0..2. */
    static Cct random(long seed, int stacks, int maxDepth, int alphabet) {
        Random r = new Random(seed);
        Cct t = new Cct(16);
        for (int s = 0; s < stacks; s++) {
            int depth = r.nextInt(maxDepth + 1);
            long[] m = new long[depth];
            int[] l = new int[depth];
            for (int i = 0; i < depth; i++) {
                m[i] = 1 + r.nextInt(alphabet);
                l[i] = r.nextInt(3);
            }
            t.addStack(m, l, depth, 1 + r.nextInt(5));
        }
        return t;
    }

    /** A random change list over methods 1..alphabet+2 (the last two never occur in random trees). */
    static ChangeList randomChanges(long seed, int alphabet) {
        Random r = new Random(seed);
        long[][] lists = new long[3][];
        for (int k = 0; k < 3; k++) {
            lists[k] = r.longs(r.nextInt(3), 1, alphabet + 3).toArray();
        }
        return new ChangeList(lists[0], lists[1], lists[2]);
    }

    /** Node id → {self, total}, the tree as a set of contexts with counts. */
    static Map<Long, Map.Entry<Long, Long>> counts(Cct t) {
        Map<Long, Map.Entry<Long, Long>> out = new HashMap<>();
        for (int n = 0; n < t.size(); n++) {
            out.put(t.id(n), Map.entry(t.self(n), t.total(n)));
        }
        return out;
    }

    /** The plain sum of two trees, context by context. */
    static Map<Long, Map.Entry<Long, Long>> sum(Cct a, Cct b) {
        Map<Long, Map.Entry<Long, Long>> out = counts(a);
        counts(b).forEach((id, c) -> out.merge(id, c,
                (x, y) -> Map.entry(x.getKey() + y.getKey(), x.getValue() + y.getValue())));
        return out;
    }
}
