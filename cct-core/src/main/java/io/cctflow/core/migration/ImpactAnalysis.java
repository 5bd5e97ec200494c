package io.cctflow.core.migration;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Function-level change impact analysis (seed 001 Sect. 4.3.2) on the nodes of a CCT.
 *
 * <p>A method counts as <em>changed</em> when the {@link ChangeList} lists it as added, deleted or
 * modified. Both analyses decide per method and then mark every node of that method, because both
 * "work at the level of functions" (seed 001 Sect. 4.3.2, AG bullet).
 */
public enum ImpactAnalysis {
    /**
     * Aggressive: "only marks functions containing atomic changes as affected" (seed 001 Sect.
     * 4.3.2). A node is affected iff its own method is changed.
     */
    AG,
    /**
     * Bohner and Arnold: "marks all functions downstream from (i.e., invoked after) a changed
     * function as affected [...] when the main function of a program is changed, the method will
     * mark all functions as affected" (seed 001 Sect. 4.3.2). Downstream is the callee direction:
     * a method is affected iff it is changed or reachable from a changed method along call edges
     * (caller to callee). The call graph is the dynamic one read off the profile trees (every
     * parent/child node pair is a caller/callee edge), since a CCT is what we have; Bohner and
     * Arnold used a static call graph. Because the affected method set is closed under callees,
     * every node in the subtree of an affected node is affected too, and so are other contexts of
     * a reached method.
     */
    BA;

    /**
     * The affected nodes of {@code tree}, with the call graph taken from {@code tree} alone.
     *
     * @return a fresh array indexed by node; the root is never affected
     */
    public boolean[] affected(Cct tree, ChangeList changes) {
        return affected(tree, changes, null);
    }

    /**
     * The affected nodes of {@code tree}. For {@link #BA}, the call graph is the union of the
     * edges of {@code tree} and of {@code moreCallEdges} (typically the new deployment's partial
     * tree, which has the call edges of added methods the old tree cannot have); {@link #AG}
     * ignores it.
     *
     * @param moreCallEdges may be null
     * @return a fresh array indexed by node of {@code tree}; the root is never affected
     */
    public boolean[] affected(Cct tree, ChangeList changes, Cct moreCallEdges) {
        Set<Long> affectedMethods = this == AG ? null : reachableFromChanged(changes, tree, moreCallEdges);
        boolean[] out = new boolean[tree.size()];
        for (int n = 1; n < tree.size(); n++) {
            long m = tree.method(n);
            out[n] = this == AG ? isChanged(changes, m) : affectedMethods.contains(m);
        }
        return out;
    }

    static boolean isChanged(ChangeList changes, long method) {
        return changes.isModified(method) || changes.isAdded(method) || changes.isDeleted(method);
    }

    private static Set<Long> reachableFromChanged(ChangeList changes, Cct tree, Cct more) {
        Map<Long, Set<Long>> callees = new HashMap<>();
        Set<Long> affected = new HashSet<>();
        ArrayDeque<Long> work = new ArrayDeque<>();
        for (Cct t : new Cct[] {tree, more}) {
            if (t == null) {
                continue;
            }
            for (int n = 1; n < t.size(); n++) {
                long m = t.method(n);
                int p = t.parent(n);
                if (p != Cct.ROOT) {
                    callees.computeIfAbsent(t.method(p), k -> new HashSet<>()).add(m);
                }
                if (isChanged(changes, m) && affected.add(m)) {
                    work.add(m);
                }
            }
        }
        while (!work.isEmpty()) {
            for (long callee : callees.getOrDefault(work.poll(), Set.of())) {
                if (affected.add(callee)) {
                    work.add(callee);
                }
            }
        }
        return affected;
    }
}
