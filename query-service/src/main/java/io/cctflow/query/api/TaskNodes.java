package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.graph.read.TopologyReader;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The task roots of given tasks in a rebuilt tree, by the labels the samples job stored per
 * (service, node) (it stores roots only: the tasks a node carries and its parent does not):
 * {@code Scope.below} takes their subtrees, the nodes carrying the tasks, for metrics relative to
 * task roots (seed 002 Eq. 3.23-3.25). Stateless.
 */
public final class TaskNodes {
    private TaskNodes() {
    }

    /** The stored task names of every task root of {@code tree} (other nodes absent). */
    public static Map<Long, List<String>> labels(TopologyReader topology, String service, Cct tree) {
        List<Long> ids = new ArrayList<>(tree.size());
        for (int i = 1; i < tree.size(); i++) {
            ids.add(tree.id(i));
        }
        return topology.nodeTasks(service, ids);
    }

    /**
     * One flag per node of {@code tree}: whether it is a stored root of any of {@code wanted}; each
     * wanted name found on some node is added to {@code seen}.
     */
    public static boolean[] carrying(Cct tree, Map<Long, List<String>> labels, Collection<String> wanted,
            Set<String> seen) {
        boolean[] selected = new boolean[tree.size()];
        for (int i = 1; i < tree.size(); i++) {
            for (String t : labels.getOrDefault(tree.id(i), List.of())) {
                if (wanted.contains(t)) {
                    selected[i] = true;
                    seen.add(t);
                }
            }
        }
        return selected;
    }
}
