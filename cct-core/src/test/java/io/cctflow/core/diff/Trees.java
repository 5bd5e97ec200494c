package io.cctflow.core.diff;

import io.cctflow.core.Cct;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Small random CCT pairs for the diff properties, plus naive helpers shared by the tests. */
final class Trees {
    private Trees() {}

    /**
     * A random tree over methods 1..alphabet and lines 0..3 from random stacks; the second tree of
     * a pair reuses the stacks with some frames' lines or methods changed and some stacks dropped or
     * re-weighted, so the two share most but not all of their structure.
     */
    static Cct[] pair(long seed, int stacks, int maxDepth, int alphabet) {
        Random r = new Random(seed);
        Cct a = new Cct(16);
        Cct b = new Cct(16);
        for (int s = 0; s < stacks; s++) {
            int depth = r.nextInt(maxDepth + 1);
            long[] m = new long[depth];
            int[] l = new int[depth];
            for (int i = 0; i < depth; i++) {
                m[i] = 1 + r.nextInt(alphabet);
                l[i] = r.nextInt(4);
            }
            long count = 1 + r.nextInt(5);
            a.addStack(m, l, depth, count);
            if (r.nextInt(6) == 0) {
                continue;
            }
            long[] m2 = m.clone();
            int[] l2 = l.clone();
            for (int i = 0; i < depth; i++) {
                int k = r.nextInt(10);
                if (k == 0) {
                    l2[i] = r.nextInt(4);
                } else if (k == 1) {
                    m2[i] = 1 + r.nextInt(alphabet);
                }
            }
            b.addStack(m2, l2, depth, r.nextInt(4) == 0 ? 1 + r.nextInt(5) : count);
        }
        return new Cct[] {a, b};
    }

    /** Children of {@code p} ordered by (line, method), by a scan of the whole tree. */
    static List<Integer> children(Cct t, int p) {
        List<Integer> out = new ArrayList<>();
        for (int c = 1; c < t.size(); c++) {
            if (t.parent(c) == p) {
                out.add(c);
            }
        }
        out.sort((x, y) -> t.callSiteLine(x) != t.callSiteLine(y)
                ? Integer.compare(t.callSiteLine(x), t.callSiteLine(y))
                : Long.compare(t.method(x), t.method(y)));
        return out;
    }

    /** Builds a tree from "A0/B1/D2"-style paths (method letter, call-site line), each weighted. */
    static Cct of(Object... pathsAndSelf) {
        Cct t = new Cct(16);
        for (int k = 0; k < pathsAndSelf.length; k += 2) {
            String[] frames = ((String) pathsAndSelf[k]).split("/");
            long self = ((Number) pathsAndSelf[k + 1]).longValue();
            int node = Cct.ROOT;
            t.addCounts(Cct.ROOT, 0, self);
            for (String f : frames) {
                node = t.child(node, method(f.charAt(0)), Integer.parseInt(f.substring(1)));
                t.addCounts(node, 0, self);
            }
            t.addCounts(node, self, 0);
        }
        return t;
    }

    static long method(char letter) {
        return letter;
    }

    /** "A0/C3/H5" for a node. */
    static String path(Cct t, int node) {
        StringBuilder sb = new StringBuilder();
        for (int n = node; n != Cct.ROOT; n = t.parent(n)) {
            sb.insert(0, "/" + (char) t.method(n) + t.callSiteLine(n));
        }
        return sb.length() == 0 ? "" : sb.substring(1);
    }

    static int node(Cct t, String path) {
        int node = Cct.ROOT;
        for (String f : path.split("/")) {
            int found = -1;
            for (int c : children(t, node)) {
                if (t.method(c) == method(f.charAt(0)) && t.callSiteLine(c) == Integer.parseInt(f.substring(1))) {
                    found = c;
                }
            }
            if (found < 0) {
                throw new IllegalArgumentException("no node " + path);
            }
            node = found;
        }
        return node;
    }
}
