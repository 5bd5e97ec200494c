package io.cctflow.query.api;

import io.cctflow.core.Cct;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /api/v1/tree}: a subtree of the merged CCT of a selection, for flame graphs. It
 * starts at the virtual root (default), at the node {@code node=<id>}, or at a method ({@code
 * method=M}): then the subtrees of the method's recursion-free nodes are merged by path into one
 * tree rooted at the method. Children whose total is below {@code minShare} of the start node's
 * total, or deeper than {@code maxDepth} below it, are pruned; their samples stay in their parent's
 * total. {@code format=json} (default) nests nodes; {@code format=collapsed} gives one line per
 * path, {@code frame;frame;... count} (the FlameGraph format), where count is the path's self
 * samples plus those of its pruned children, so the lines add up to the start node's total.
 */
public final class TreeEndpoint implements JsonHandler.Endpoint {
    public static final Set<String> PARAMS = MethodMetricsEndpoint.union(Selection.PARAMS,
            Set.of("node", "method", "minShare", "maxDepth", "format"));
    static final int DEFAULT_MAX_DEPTH = 512;

    private final CatalogueReader catalogue;
    private final TreeSource trees;

    public TreeEndpoint(CatalogueReader catalogue, TreeSource trees) {
        this.catalogue = catalogue;
        this.trees = trees;
    }

    /** One node; {@code id} is the node id as a decimal string (64-bit ids do not fit a JSON double). */
    public record Node(String id, String method, int line, long self, long total, List<Node> children) {
    }

    public record Response(String service, String version, List<String> instances, String from, String to,
            String start, long totalSamples, int nodes, Node root) {
    }

    @Override
    public Object handle(QueryParams params) {
        params.allowOnly(PARAMS);
        if (params.optional("node").isPresent() && params.optional("method").isPresent()) {
            throw ApiException.badRequest("parameters 'node' and 'method' exclude each other: start the tree at a"
                    + " node or at a method");
        }
        double minShare = params.number("minShare", 0, 1).orElse(0.0);
        int maxDepth = params.integer("maxDepth", 1, 100_000).orElse(DEFAULT_MAX_DEPTH);
        boolean collapsed = params.oneOf("format", "json", "collapsed").orElse("json").equals("collapsed");
        Long nodeId = params.optional("node").map(TreeEndpoint::nodeId).orElse(null);
        List<MethodRecord> methods = params.optional("method")
                .map(m -> MethodResolver.all(catalogue, "method", m)).orElse(null);
        Selection selection = Selection.of(params, catalogue, trees.limits());
        Cct tree = trees.load(selection);

        Cct view = tree;
        int start = Cct.ROOT;
        String startName = "root";
        if (nodeId != null) {
            start = tree.indexOf(nodeId);
            if (start < 0) {
                throw ApiException.notFound("node " + Long.toUnsignedString(nodeId) + " (parameter 'node') has no"
                        + " samples in the selection");
            }
            startName = "node " + nodeId;
        } else if (methods != null) {
            Set<Long> ids = new HashSet<>();
            methods.forEach(m -> ids.add(m.id()));
            view = Subtrees.mergedBelow(tree, ids);
            startName = "method " + params.required("method");
        }
        Pruned pruned = Pruned.of(view, start, minShare, maxDepth, trees.limits().maxTreeNodes());
        Set<Long> methodIds = new HashSet<>();
        for (int n : pruned.kept()) {
            methodIds.add(view.method(n));
        }
        Map<Long, MethodRecord> names = new java.util.HashMap<>();
        catalogue.methodsById(methodIds).forEach(m -> names.put(m.id(), m));
        if (collapsed) {
            return new JsonHandler.PlainText(pruned.collapsed(id -> {
                MethodRecord m = names.get(id);
                return m == null ? "0x" + Long.toHexString(id) : m.className() + "." + m.methodName();
            }));
        }
        Node root = pruned.json(view == tree, id -> {
            MethodRecord m = names.get(id);
            return id == 0 ? "root" : m == null ? "0x" + Long.toHexString(id) : m.signature();
        });
        return new Response(selection.service(), selection.version(),
                selection.instances().stream().map(i -> i.instanceId()).toList(), selection.from().toString(),
                selection.to().toString(), startName, view.total(start), pruned.kept().size(), root);
    }

    private static long nodeId(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            try {
                return Long.parseUnsignedLong(text);
            } catch (NumberFormatException e2) {
                throw ApiException.badRequest("parameter 'node' must be a node id (a 64-bit decimal number as the tree"
                        + " endpoint returns it), got '" + text + "'");
            }
        }
    }

    /** The nodes kept after pruning, parents before children. Not thread-safe. */
    static final class Pruned {
        private final Cct tree;
        private final List<Integer> kept;
        private final List<List<Integer>> children;
        private final long[] prunedTotal; // per kept position: totals of pruned children

        private Pruned(Cct tree, List<Integer> kept, List<List<Integer>> children, long[] prunedTotal) {
            this.tree = tree;
            this.kept = kept;
            this.children = children;
            this.prunedTotal = prunedTotal;
        }

        static Pruned of(Cct tree, int start, double minShare, int maxDepth, int maxNodes) {
            List<List<Integer>> childrenOf = new ArrayList<>(tree.size());
            for (int i = 0; i < tree.size(); i++) {
                childrenOf.add(null);
            }
            for (int i = 1; i < tree.size(); i++) {
                int p = tree.parent(i);
                if (childrenOf.get(p) == null) {
                    childrenOf.set(p, new ArrayList<>());
                }
                childrenOf.get(p).add(i);
            }
            long threshold = (long) Math.ceil(minShare * tree.total(start));
            List<Integer> kept = new ArrayList<>();
            List<List<Integer>> keptChildren = new ArrayList<>();
            List<Long> prunedTotals = new ArrayList<>();
            int baseDepth = tree.depth(start);
            kept.add(start);
            keptChildren.add(new ArrayList<>());
            prunedTotals.add(0L);
            for (int k = 0; k < kept.size(); k++) {
                int n = kept.get(k);
                List<Integer> cs = childrenOf.get(n);
                if (cs == null) {
                    continue;
                }
                for (int c : cs) {
                    if (tree.total(c) > 0 && tree.total(c) >= threshold && tree.depth(c) - baseDepth <= maxDepth) {
                        if (kept.size() >= maxNodes) {
                            throw ApiException.badRequest("the tree has more than limits.max-tree-nodes = " + maxNodes
                                    + " nodes after pruning; raise 'minShare' or lower 'maxDepth'");
                        }
                        keptChildren.get(k).add(kept.size());
                        kept.add(c);
                        keptChildren.add(new ArrayList<>());
                        prunedTotals.add(0L);
                    } else {
                        prunedTotals.set(k, prunedTotals.get(k) + tree.total(c));
                    }
                }
            }
            return new Pruned(tree, kept, keptChildren,
                    prunedTotals.stream().mapToLong(Long::longValue).toArray());
        }

        List<Integer> kept() {
            return kept;
        }

        /** @param realIds whether node ids are those of the stored tree (not of a merged view) */
        Node json(boolean realIds, java.util.function.LongFunction<String> name) {
            return node(0, realIds, name);
        }

        private Node node(int k, boolean realIds, java.util.function.LongFunction<String> name) {
            int n = kept.get(k);
            List<Node> cs = new ArrayList<>();
            for (int c : children.get(k)) {
                cs.add(node(c, realIds, name));
            }
            String id = realIds ? Long.toString(tree.id(n)) : null;
            return new Node(id, name.apply(tree.method(n)), tree.callSiteLine(n), tree.self(n), tree.total(n), cs);
        }

        /** One line per kept node with samples of its own (self plus pruned children). */
        String collapsed(java.util.function.LongFunction<String> frame) {
            StringBuilder out = new StringBuilder();
            String[] paths = new String[kept.size()];
            paths[0] = kept.get(0) == Cct.ROOT ? "" : frame.apply(tree.method(kept.get(0)));
            // parents come before children in kept: fill paths top-down
            for (int k = 0; k < kept.size(); k++) {
                for (int c : children.get(k)) {
                    String own = frame.apply(tree.method(kept.get(c)));
                    paths[c] = paths[k].isEmpty() ? own : paths[k] + ";" + own;
                }
            }
            for (int k = 0; k < kept.size(); k++) {
                long count = tree.self(kept.get(k)) + prunedTotal[k];
                if (count > 0 && !paths[k].isEmpty()) {
                    out.append(paths[k]).append(' ').append(count).append('\n');
                }
            }
            return out.toString();
        }
    }
}
