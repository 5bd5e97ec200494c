package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.core.metrics.Scope;
import java.util.Set;

/** Trees derived from a CCT for display. */
final class Subtrees {
    private Subtrees() {
    }

    /**
     * The subtrees of the recursion-free nodes of a set of methods (nodes of the set with no
     * ancestor in the set) merged by path into one tree: its one depth-1 node is the method (call
     * site 0), whose total is the method samples of the set; below it, nodes with the same (method,
     * call-site line) path are summed. Per-thread counts are left out. O(nodes).
     */
    static Cct mergedBelow(Cct tree, Set<Long> methods) {
        Cct merged = new Cct(tree.size());
        int[] image = new int[tree.size()]; // node -> node of merged, or -1 outside the subtrees
        java.util.Arrays.fill(image, -1);
        long top = methods.size() == 1 ? methods.iterator().next() : 0;
        for (int i = 1; i < tree.size(); i++) {
            int parentImage = image[tree.parent(i)];
            if (parentImage >= 0) {
                image[i] = merged.child(parentImage, tree.method(i), tree.callSiteLine(i));
            } else if (methods.contains(tree.method(i))) {
                // overloads of one name merge into one start node; a single method keeps its id
                image[i] = merged.child(Cct.ROOT, methods.size() == 1 ? top : tree.method(i), 0);
            } else {
                continue;
            }
            merged.addCounts(image[i], tree.self(i), tree.total(i));
            if (parentImage < 0) {
                merged.addCounts(Cct.ROOT, 0, tree.total(i));
            }
        }
        return merged;
    }

    /**
     * The samples of a scope's subtrees with their calling contexts: a node in scope keeps its
     * counts; a node above the scope keeps its place with no self samples and, as total, the totals
     * of the scope's roots below it; nodes with no samples of the scope are left out. Ids stay those
     * of the stored tree (they are functions of the path). Per-thread counts are left out. O(nodes).
     */
    static Cct within(Scope scope) {
        Cct tree = scope.tree();
        long[] total = new long[tree.size()];
        for (int i = tree.size() - 1; i >= 0; i--) { // children have larger indexes than their parents
            if (scope.contains(i)) {
                total[i] = tree.total(i);
            }
            if (i > 0 && !scope.contains(tree.parent(i))) {
                total[tree.parent(i)] += total[i];
            }
        }
        Cct kept = new Cct(tree.size());
        int[] image = new int[tree.size()];
        kept.addCounts(Cct.ROOT, scope.contains(Cct.ROOT) ? tree.self(Cct.ROOT) : 0, total[Cct.ROOT]);
        for (int i = 1; i < tree.size(); i++) {
            if (total[i] > 0) {
                image[i] = kept.child(image[tree.parent(i)], tree.method(i), tree.callSiteLine(i));
                kept.addCounts(image[i], scope.contains(i) ? tree.self(i) : 0, total[i]);
            }
        }
        return kept;
    }
}
