package io.cctflow.core.metrics;

import io.cctflow.core.Cct;
import io.cctflow.core.task.TaskLabels;
import java.util.Arrays;

/**
 * The part of a tree metrics are computed in: a union of subtrees, closed downwards (a node is in
 * scope when it or an ancestor is a selected node), and its roots, the highest nodes in scope.
 * Method time is relative to the roots' summed totals (Eq. 3.6 with the global root, Eq. 3.25
 * with task roots); the other metrics only count nodes in scope (Eq. 3.23).
 *
 * <p>A snapshot of the tree at construction: nodes added later are outside. Immutable after
 * construction; thread-safe if the tree is not modified.
 */
public final class Scope {
    private final Cct tree;
    private final boolean[] inScope;
    private final int[] roots;
    private final long rootSamples;

    private Scope(Cct tree, boolean[] inScope) {
        this.tree = tree;
        this.inScope = inScope;
        int[] r = new int[8];
        int count = 0;
        long samples = 0;
        for (int i = 0; i < inScope.length; i++) {
            if (inScope[i] && (i == Cct.ROOT || !inScope[tree.parent(i)])) {
                if (count == r.length) {
                    r = Arrays.copyOf(r, count * 2);
                }
                r[count++] = i;
                samples += tree.total(i);
            }
        }
        this.roots = Arrays.copyOf(r, count);
        this.rootSamples = samples;
    }

    /** The whole tree, rooted at the virtual root (Eq. 3.6). */
    public static Scope whole(Cct tree) {
        boolean[] all = new boolean[tree.size()];
        Arrays.fill(all, true);
        return new Scope(tree, all);
    }

    /**
     * The subtrees of the selected nodes: a node is in scope when it or an ancestor is selected.
     *
     * @param selected one flag per node index; indexes beyond its length count as not selected
     */
    public static Scope below(Cct tree, boolean[] selected) {
        boolean[] in = new boolean[tree.size()];
        in[Cct.ROOT] = selected.length > 0 && selected[Cct.ROOT];
        for (int i = 1; i < in.length; i++) {
            in[i] = (i < selected.length && selected[i]) || in[tree.parent(i)];
        }
        return new Scope(tree, in);
    }

    /**
     * The subtrees of the selected tasks (Eq. 3.23): nodes carrying any of them; the roots are the
     * task roots (Eq. 3.24). Names no method matched select nothing.
     */
    public static Scope ofTasks(TaskLabels labels, String... taskNames) {
        return below(labels.tree(), labels.nodesIn(taskNames));
    }

    /** {@link #ofTasks(TaskLabels, String...)} by task ids. */
    public static Scope ofTasks(TaskLabels labels, int... taskIds) {
        return below(labels.tree(), labels.nodesIn(taskIds));
    }

    /**
     * Dynamic task root (seed 002 Sect. 5.3.2, "mark the current method as new task root"): the
     * subtrees of the method's recursion-free nodes. Its root samples are the method samples of the
     * method, so the method itself has method time 1.
     */
    public static Scope dynamicTaskRoot(Cct tree, long methodId) {
        boolean[] selected = new boolean[tree.size()];
        for (int i = 1; i < selected.length; i++) {
            selected[i] = tree.method(i) == methodId;
        }
        return below(tree, selected);
    }

    public Cct tree() {
        return tree;
    }

    /** Number of nodes the scope knows (the tree's size at construction). */
    public int nodes() {
        return inScope.length;
    }

    public boolean contains(int node) {
        return node >= 0 && node < inScope.length && inScope[node];
    }

    /** The highest nodes in scope, ascending (a copy). */
    public int[] roots() {
        return roots.clone();
    }

    /** Sum of the roots' total counts: the denominator of method time (Eq. 3.6, 3.25). */
    public long rootSamples() {
        return rootSamples;
    }
}
