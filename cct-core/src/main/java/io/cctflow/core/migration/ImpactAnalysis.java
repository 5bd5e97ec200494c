package io.cctflow.core.migration;

import io.cctflow.core.Cct;
import io.cctflow.core.diff.ChangeList;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Function-level change impact analysis (seed 001 Sect. 4.3.2) on the nodes of a CCT.
 *
 * <p>A method counts as <em>changed</em> when the {@link ChangeList} lists it as added, deleted or
 * modified. {@link #AG} and {@link #BA} are the paper's (its third, SL, needs program slicing of
 * source code, which we do not have); they decide per method and then mark every node of that
 * method, because both "work at the level of functions" (seed 001 Sect. 4.3.2, AG bullet).
 * {@link #AG_CALLER} is ours: AG made context-sensitive for calling context trees. From least to
 * most conservative: AG, AG_CALLER, BA; each marks a superset of the nodes the previous one marks.
 *
 * <p>Stateless and thread-safe; the trees are only read and must not change during a call.
 */
public enum ImpactAnalysis {
    /**
     * Aggressive: "only marks functions containing atomic changes as affected" (seed 001 Sect.
     * 4.3.2). A node is affected iff its own method is changed.
     */
    AG,
    /**
     * AG plus every context under a changed caller (not in seed 001): a node is affected iff its
     * own method or the method of any of its ancestors (any frame above it on its path) is
     * changed, i.e. the whole subtree of every node of a changed method.
     *
     * <p>Why: an entry of a CCT is a calling context, and its count is how often its path runs,
     * which depends on the code of every method on the path, not only on its own. Seed 001 makes
     * the same point for its call-graph profiles (Sect. 6.2: "the coupling relations between
     * callers and callees") and for nesting (Sect. 4.4: subsequences are reused "because their
     * caller functions [...] are not affected"). Plain AG keeps the old counts of a context whose
     * changed caller may no longer call it at all; one level below the changed node is not enough
     * either, since the callees of such a context disappear with it. Unlike {@link #BA}, other
     * contexts of the reached methods (under unchanged callers) stay reusable, and the call graph
     * is not needed: {@code moreCallEdges} is ignored.
     */
    AG_CALLER,
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
     * tree, which has the call edges of added methods the old tree cannot have); {@link #AG} and
     * {@link #AG_CALLER} ignore it.
     *
     * @param moreCallEdges may be null
     * @return a fresh array indexed by node of {@code tree}; the root is never affected
     */
    public boolean[] affected(Cct tree, ChangeList changes, Cct moreCallEdges) {
        Objects.requireNonNull(tree, "tree");
        Objects.requireNonNull(changes, "changes");
        boolean[] out = new boolean[tree.size()];
        switch (this) {
            case AG -> {
                for (int n = 1; n < tree.size(); n++) {
                    out[n] = isChanged(changes, tree.method(n));
                }
            }
            case AG_CALLER -> {
                // parents have smaller indexes than children, so the parent's mark is final here
                for (int n = 1; n < tree.size(); n++) {
                    out[n] = out[tree.parent(n)] || isChanged(changes, tree.method(n));
                }
            }
            case BA -> {
                Set<Long> affectedMethods = reachableFromChanged(changes, tree, moreCallEdges);
                for (int n = 1; n < tree.size(); n++) {
                    out[n] = affectedMethods.contains(tree.method(n));
                }
            }
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
