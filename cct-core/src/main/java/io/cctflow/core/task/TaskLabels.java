package io.cctflow.core.task;

import io.cctflow.core.Cct;
import java.util.Arrays;
import java.util.List;

/**
 * The task labels of every node of one tree: one label set id per node (see {@link
 * TaskLabeller#tasksOf}), no object per node.
 *
 * <p>Nodes added to the tree later are labelled by {@link #update()} from their parents' labels;
 * definitions added to the labeller later are applied by {@link #relabel()}. Not thread-safe.
 */
public final class TaskLabels {
    private final TaskLabeller labeller;
    private final Cct tree;
    private int[] labelSets;
    private int labelled;
    private int definitionsApplied;

    TaskLabels(TaskLabeller labeller, Cct tree) {
        this.labeller = labeller;
        this.tree = tree;
        this.labelSets = new int[Math.max(16, tree.size())];
    }

    public TaskLabeller labeller() {
        return labeller;
    }

    public Cct tree() {
        return tree;
    }

    /**
     * Labels the nodes created since the last call, each from its parent's labels: O(new nodes).
     * If definitions were added to the labeller meanwhile, relabels the whole tree instead.
     */
    public void update() {
        if (definitionsApplied != labeller.definitionCount()) {
            relabel();
            return;
        }
        labelFrom(labelled);
    }

    /**
     * Labels the whole tree again: after {@link TaskLabeller#addDefinition}. O(nodes) union
     * lookups; only the new definitions are matched, once per distinct method.
     */
    public void relabel() {
        definitionsApplied = labeller.definitionCount();
        labelFrom(0);
    }

    private void labelFrom(int first) {
        int n = tree.size();
        if (n > labelSets.length) {
            labelSets = Arrays.copyOf(labelSets, Math.max(n, labelSets.length * 2));
        }
        int start = first;
        if (start == 0) {
            labelSets[Cct.ROOT] = TaskLabeller.NO_TASKS;
            start = 1;
        }
        for (int i = start; i < n; i++) {
            labelSets[i] = labeller.childLabels(labelSets[tree.parent(i)], tree.method(i));
        }
        labelled = n;
    }

    /** Number of nodes labelled, {@code 0..labelledNodes()-1}. */
    public int labelledNodes() {
        return labelled;
    }

    /** The label set id of a node. */
    public int labelSet(int node) {
        checkLabelled(node);
        return labelSets[node];
    }

    public boolean has(int node, int taskId) {
        return labeller.contains(labelSet(node), taskId);
    }

    /** The task names of a node, in task id order. */
    public List<String> taskNames(int node) {
        return labeller.taskNamesOf(labelSet(node));
    }

    /** For each node, whether it carries any of the tasks (Eq. 3.23: {@code n.tasks ∩ T ≠ ∅}). */
    public boolean[] nodesIn(int... taskIds) {
        boolean[] setSelected = labeller.intersecting(taskIds);
        boolean[] result = new boolean[labelled];
        for (int i = 0; i < labelled; i++) {
            result[i] = setSelected[labelSets[i]];
        }
        return result;
    }

    /** {@link #nodesIn(int...)} by task names; names no method matched are ignored. */
    public boolean[] nodesIn(String... taskNames) {
        return nodesIn(ids(taskNames));
    }

    /**
     * Task roots of the selected tasks (Eq. 3.24): nodes carrying one of them whose parent carries
     * none. Ascending node indexes; no root is in another root's subtree.
     */
    public int[] taskRoots(int... taskIds) {
        boolean[] in = nodesIn(taskIds);
        int[] roots = new int[16];
        int count = 0;
        for (int i = 1; i < labelled; i++) {
            if (in[i] && !in[tree.parent(i)]) {
                if (count == roots.length) {
                    roots = Arrays.copyOf(roots, count * 2);
                }
                roots[count++] = i;
            }
        }
        return Arrays.copyOf(roots, count);
    }

    /** {@link #taskRoots(int...)} by task names; names no method matched are ignored. */
    public int[] taskRoots(String... taskNames) {
        return taskRoots(ids(taskNames));
    }

    private int[] ids(String... taskNames) {
        int[] ids = new int[taskNames.length];
        int n = 0;
        for (String name : taskNames) {
            int id = labeller.taskId(name);
            if (id >= 0) {
                ids[n++] = id;
            }
        }
        return Arrays.copyOf(ids, n);
    }

    private void checkLabelled(int node) {
        if (node < 0 || node >= labelled) {
            throw new IndexOutOfBoundsException("node " + node + " is not labelled (" + labelled
                    + " nodes labelled); call update() after adding nodes");
        }
    }
}
