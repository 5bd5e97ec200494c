package io.cctflow.query.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import io.cctflow.core.Cct;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.RangePlanner;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.http.ApiException;
import io.cctflow.query.http.JsonHandler;
import io.cctflow.query.http.QueryParams;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * {@code GET /api/v1/tree}: a subtree of the merged CCT of a selection, for flame graphs. It
 * starts at the virtual root (default), at the node {@code node=<id>}, or at a method ({@code
 * method=M}): then the subtrees of the method's recursion-free nodes are merged by path into one
 * tree rooted at the method. Children whose total is below {@code minShare} of the start node's
 * total, or deeper than {@code maxDepth} below it, are pruned; their samples stay in their parent's
 * total. {@code format=json} (default) nests nodes; {@code format=columns} gives the same nodes as
 * parallel arrays ({@link TreeColumns}); {@code format=collapsed} gives one line per
 * path, {@code frame;frame;... count} (the FlameGraph format), where count is the path's self
 * samples plus those of its pruned children, so the lines add up to the start node's total. With
 * {@code thread} or {@code thread-group} ({@link ThreadParams}) the tree holds the selected
 * threads' samples only. With {@code migrate} ({@link MigratedAnswers}) a young deployment's tree
 * is blended with its previous deployment's migrated profile: each node then also says {@code
 * migrated} (whether any of its count came from the previous deployment) and {@code
 * migratedTotal} (how much), and {@code migration} says how much of the whole answer is migrated;
 * {@code format=collapsed}, which cannot mark a frame, is refused with a migration mode. Finished
 * answers are kept across requests, rendered and gzipped (a {@link VersionedCache} keyed by the
 * settled versions of the windows read, the resolved selection and the request), so a repeated
 * view is found in two round trips (the selection's instances and the store's window stamp) and
 * sent as kept.
 */
public final class TreeEndpoint implements JsonHandler.Endpoint {
    public static final Set<String> PARAMS = MethodMetricsEndpoint.union(Selection.PARAMS, ThreadParams.PARAMS,
            MigratedAnswers.PARAMS, Set.of("node", "method", "task", "minShare", "maxDepth", "format"));
    static final int DEFAULT_MAX_DEPTH = 512;

    private final CatalogueReader catalogue;
    private final TopologyReader topology;
    private final TreeSource trees;
    private final MigratedAnswers migrations;
    /** Default bound of the answer cache: 64 MiB, about ten answers of 100,000 nodes in columns with their gzip. */
    static final long DEFAULT_ANSWER_BYTES = 64L << 20;

    private final VersionedCache<JsonHandler.Prerendered> answers;

    /** An endpoint with an answer cache of {@link #DEFAULT_ANSWER_BYTES}. */
    public TreeEndpoint(CatalogueReader catalogue, TopologyReader topology, TreeSource trees,
            MigratedAnswers migrations) {
        this(catalogue, topology, trees, migrations, DEFAULT_ANSWER_BYTES);
    }

    /**
     * @param answerCacheBytes most bytes of finished answers kept (body and gzip, plus twice the
     *     key's length); 0 turns the cache off
     */
    public TreeEndpoint(CatalogueReader catalogue, TopologyReader topology, TreeSource trees,
            MigratedAnswers migrations, long answerCacheBytes) {
        this.catalogue = catalogue;
        this.topology = topology;
        this.trees = trees;
        this.migrations = migrations;
        this.answers = new VersionedCache<>("tree answer", answerCacheBytes,
                (key, answer) -> answer.size() + 2L * key.length());
    }

    /**
     * The nested nodes of a response: {@code {"id", "method", "line", "self", "total", "children":
     * [...]}}, {@code id} the node id as a decimal string (64-bit ids do not fit a JSON double), null
     * in a merged view; with a migration also {@code "migrated"} and {@code "migratedTotal"}. Written
     * with an explicit stack, so a tree thousands of levels deep costs no call stack.
     */
    public interface Nodes extends JsonSerializable {
    }

    /**
     * @param context how to decode a node's calling context: {@link ContextEndpoint#LINK}, {@code
     *     {id}} standing for a node's {@code id}
     */
    public record Response(String service, String version, List<String> instances, String from, String to,
            String start, List<String> tasks, ThreadParams threads, long totalSamples, int nodes, String context,
            MigratedAnswers.Summary migration, Nodes root) {
    }

    /** The answer of {@code format=columns}: the header of {@link Response}, the nodes as {@link TreeColumns}. */
    public record ColumnsResponse(String service, String version, List<String> instances, String from, String to,
            String start, List<String> tasks, ThreadParams threads, long totalSamples, int nodes, String context,
            JsonSerializable tree) {
    }

    @Override
    public Object handle(QueryParams params) {
        params.allowOnly(PARAMS);
        if (params.optional("node").isPresent() && params.optional("method").isPresent()) {
            throw ApiException.badRequest("parameters 'node' and 'method' exclude each other: start the tree at a"
                    + " node or at a method");
        }
        double minShare = params.number("minShare", 0, 1).orElse(0.0);
        int maxDepth = params.integer("maxDepth", 1, JsonHandler.MAX_TREE_DEPTH).orElse(DEFAULT_MAX_DEPTH);
        String format = params.oneOf("format", "json", "collapsed", "columns").orElse("json");
        boolean migrating = !MigratedAnswers.mode(params).equals(MigratedAnswers.OFF);
        if (!format.equals("json") && migrating) {
            throw ApiException.badRequest("parameter 'migrate' needs format=json: " + format + " cannot mark"
                    + " migrated frames; give migrate=off for format=" + format);
        }
        if (migrating && !params.all("task").isEmpty()) {
            throw ApiException.badRequest("parameters 'migrate' and 'task' exclude each other: the migrated"
                    + " profile of the previous deployment is not split by task; give migrate=off with 'task'");
        }
        Long nodeId = params.optional("node").map(t -> NodeIds.parse("node", t)).orElse(null);
        List<MethodRecord> methods = params.optional("method")
                .map(m -> MethodResolver.all(catalogue, "method", m)).orElse(null);
        ThreadParams threads = ThreadParams.of(params);
        Selection selection = Selection.of(params, catalogue, trees.limits());
        List<String> tasks = params.all("task");
        // kept only where the answer is a function of the windows read, the request and, with
        // tasks, the task labels (stored apart from the windows: named by their version, read before
        // them); a migration also reads another deployment and both deployments' code, which no
        // version names
        String labels = tasks.isEmpty() ? "" : topology.taskLabelsVersion();
        boolean keepable = !migrating && labels != null;
        RangePlanner.Versions versions = keepable ? trees.versions(selection) : new RangePlanner.Versions(null, null);
        JsonHandler.Prerendered kept = answers.get(answerKey(versions.settledVersions(), labels, selection, params));
        if (kept != null) {
            return kept;
        }
        TreeSource.Versioned loaded = keepable ? trees.loadVersioned(selection, versions)
                : trees.loadVersioned(selection);
        Answer answer = answer(params, selection, threads, loaded.named().tree(), tasks, nodeId, methods, minShare,
                maxDepth, format);
        String key = keepable ? answerKey(loaded.settledVersions(), labels, selection, params) : null;
        if (key == null || !answer.named()) {
            return answer.body();
        }
        JsonHandler.Prerendered rendered = JsonHandler.prerenderGzipped(answer.body());
        answers.put(key, rendered);
        return rendered;
    }

    /**
     * The answer cache's key: the settled versions, the task labels' version (empty without
     * tasks), the resolved selection and the request; null when unsettled.
     */
    private static String answerKey(String settledVersions, String labels, Selection selection, QueryParams params) {
        return settledVersions == null ? null : settledVersions + ' ' + labels + ' ' + selection.from() + ' '
                + selection.to() + ' ' + selection.instances().stream().map(i -> i.instanceId()).toList() + ' '
                + params.canonical();
    }

    /** The answers kept (for tests of its bound). */
    VersionedCache<JsonHandler.Prerendered> answers() {
        return answers;
    }

    /** An answer, and whether every method in it had its name in the catalogue (else it is not kept). */
    private record Answer(Object body, boolean named) {
    }

    private Answer answer(QueryParams params, Selection selection, ThreadParams threads, Cct loaded,
            List<String> tasks, Long nodeId, List<MethodRecord> methods, double minShare, int maxDepth,
            String format) {
        MigratedAnswers.Answer answer = migrations.answer(params, selection, threads, threads.apply(loaded));
        Cct tree = answer.tree();
        if (!tasks.isEmpty()) {
            tree = Subtrees.within(ScopeParams.of(params, catalogue, topology, selection.service(), tree).scope());
        }

        Cct view = tree;
        Cct migratedView = answer.migratedPart();
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
            migratedView = migratedView == null ? null : Subtrees.mergedBelow(migratedView, ids);
            startName = "method " + params.required("method");
        }
        Pruned pruned = Pruned.of(view, start, minShare, maxDepth, trees.limits().maxTreeNodes());
        Set<Long> methodIds = new HashSet<>();
        for (int k = 0; k < pruned.size(); k++) {
            methodIds.add(view.method(pruned.node(k)));
        }
        Map<Long, MethodRecord> names = new java.util.HashMap<>();
        catalogue.methodsById(methodIds).forEach(m -> names.put(m.id(), m));
        methodIds.remove(0L);
        boolean named = names.keySet().containsAll(methodIds);
        if (format.equals("collapsed")) {
            return new Answer(new JsonHandler.PlainText(pruned.collapsed(id -> {
                MethodRecord m = names.get(id);
                return m == null ? "0x" + Long.toHexString(id) : m.className() + "." + m.methodName();
            })), named);
        }
        LongFunction<String> signature = id -> {
            MethodRecord m = names.get(id);
            return id == 0 ? "root" : m == null ? "0x" + Long.toHexString(id) : m.signature();
        };
        if (format.equals("columns")) {
            return new Answer(new ColumnsResponse(selection.service(), selection.version(),
                    selection.instances().stream().map(i -> i.instanceId()).toList(), selection.from().toString(),
                    selection.to().toString(), startName, tasks, threads, view.total(start), pruned.size(),
                    ContextEndpoint.LINK, pruned.columns(view == tree, signature)), named);
        }
        Nodes root = pruned.json(view == tree, migratedView, signature);
        return new Answer(new Response(selection.service(), selection.version(),
                selection.instances().stream().map(i -> i.instanceId()).toList(), selection.from().toString(),
                selection.to().toString(), startName, tasks, threads, view.total(start), pruned.size(),
                ContextEndpoint.LINK, answer.summary(), root), named);
    }

    /**
     * The nodes kept after pruning, parents before children (breadth first), in primitive arrays:
     * the kept children of a kept node are consecutive positions. Not thread-safe.
     */
    static final class Pruned {
        private final Cct tree;
        private final int size;
        private final int[] kept; // per kept position: the node of the tree
        private final int[] firstChild; // per kept position: the position of its first kept child
        private final int[] childCount; // per kept position: how many kept children
        private final long[] prunedTotal; // per kept position: totals of pruned children

        private Pruned(Cct tree, int size, int[] kept, int[] firstChild, int[] childCount, long[] prunedTotal) {
            this.tree = tree;
            this.size = size;
            this.kept = kept;
            this.firstChild = firstChild;
            this.childCount = childCount;
            this.prunedTotal = prunedTotal;
        }

        static Pruned of(Cct tree, int start, double minShare, int maxDepth, int maxNodes) {
            int n = tree.size();
            int[] childOffset = new int[n + 1]; // the tree's children of node i: childOf[childOffset[i] .. childOffset[i + 1])
            for (int i = 1; i < n; i++) {
                childOffset[tree.parent(i) + 1]++;
            }
            for (int i = 0; i < n; i++) {
                childOffset[i + 1] += childOffset[i];
            }
            int[] childOf = new int[Math.max(0, n - 1)];
            int[] next = Arrays.copyOf(childOffset, n);
            for (int i = 1; i < n; i++) {
                childOf[next[tree.parent(i)]++] = i;
            }
            long threshold = (long) Math.ceil(minShare * tree.total(start));
            int capacity = (int) Math.min(n, (long) maxNodes + 1);
            int[] kept = new int[capacity];
            int[] firstChild = new int[capacity];
            int[] childCount = new int[capacity];
            long[] prunedTotal = new long[capacity];
            int baseDepth = tree.depth(start);
            kept[0] = start;
            int size = 1;
            for (int k = 0; k < size; k++) {
                int node = kept[k];
                firstChild[k] = size;
                for (int j = childOffset[node]; j < childOffset[node + 1]; j++) {
                    int c = childOf[j];
                    if (tree.total(c) > 0 && tree.total(c) >= threshold && tree.depth(c) - baseDepth <= maxDepth) {
                        if (size >= maxNodes) {
                            throw ApiException.badRequest("the tree has more than limits.max-tree-nodes = " + maxNodes
                                    + " nodes after pruning; raise 'minShare' or lower 'maxDepth'");
                        }
                        kept[size++] = c;
                        childCount[k]++;
                    } else {
                        prunedTotal[k] += tree.total(c);
                    }
                }
            }
            return new Pruned(tree, size, kept, firstChild, childCount, prunedTotal);
        }

        /** Nodes kept. */
        int size() {
            return size;
        }

        /** The tree's node at kept position {@code k}. */
        int node(int k) {
            return kept[k];
        }

        /**
         * @param realIds whether node ids are those of the stored tree (not of a merged view)
         * @param migrated the tree's nodes (same indexes) with only their migrated counts, or null
         */
        Nodes json(boolean realIds, Cct migrated, LongFunction<String> name) {
            return new Nodes() {
                @Override
                public void serialize(JsonGenerator gen, SerializerProvider provider) throws IOException {
                    write(gen, realIds, migrated, name);
                }

                @Override
                public void serializeWithType(JsonGenerator gen, SerializerProvider provider, TypeSerializer type)
                        throws IOException {
                    write(gen, realIds, migrated, name);
                }
            };
        }

        TreeColumns columns(boolean realIds, LongFunction<String> name) {
            return new TreeColumns(tree, size, kept, firstChild, childCount, realIds, name);
        }

        /** Depth first with an explicit stack of (kept position, next child to write). */
        private void write(JsonGenerator gen, boolean realIds, Cct migrated, LongFunction<String> name)
                throws IOException {
            int[] node = new int[16];
            int[] next = new int[16];
            int top = 0;
            open(gen, 0, realIds, migrated, name);
            node[0] = 0;
            next[0] = 0;
            while (top >= 0) {
                if (next[top] == childCount[node[top]]) {
                    gen.writeEndArray();
                    gen.writeEndObject();
                    top--;
                    continue;
                }
                int c = firstChild[node[top]] + next[top]++;
                open(gen, c, realIds, migrated, name);
                if (++top == node.length) {
                    node = Arrays.copyOf(node, top * 2);
                    next = Arrays.copyOf(next, top * 2);
                }
                node[top] = c;
                next[top] = 0;
            }
        }

        /** Writes a node's fields and opens its children array. */
        private void open(JsonGenerator gen, int k, boolean realIds, Cct migrated, LongFunction<String> name)
                throws IOException {
            int n = kept[k];
            gen.writeStartObject();
            gen.writeStringField("id", realIds ? Long.toString(tree.id(n)) : null);
            gen.writeStringField("method", name.apply(tree.method(n)));
            gen.writeNumberField("line", tree.callSiteLine(n));
            gen.writeNumberField("self", tree.self(n));
            gen.writeNumberField("total", tree.total(n));
            if (migrated != null) {
                gen.writeBooleanField("migrated", migrated.total(n) > 0);
                gen.writeNumberField("migratedTotal", migrated.total(n));
            }
            gen.writeArrayFieldStart("children");
        }

        /**
         * One line per kept node with samples of its own (self plus pruned children), depth first;
         * one path buffer cut back on the way up, so a deep tree costs no more than its output.
         */
        String collapsed(LongFunction<String> frame) {
            StringBuilder out = new StringBuilder();
            StringBuilder path = new StringBuilder();
            int[] node = new int[16];
            int[] next = new int[16];
            int[] length = new int[16]; // path length before the node's frame
            int top = 0;
            if (kept[0] != Cct.ROOT) {
                path.append(frame.apply(tree.method(kept[0])));
            }
            line(out, path, 0);
            while (top >= 0) {
                if (next[top] == childCount[node[top]]) {
                    path.setLength(length[top]);
                    top--;
                    continue;
                }
                int c = firstChild[node[top]] + next[top]++;
                if (++top == node.length) {
                    node = Arrays.copyOf(node, top * 2);
                    next = Arrays.copyOf(next, top * 2);
                    length = Arrays.copyOf(length, top * 2);
                }
                node[top] = c;
                next[top] = 0;
                length[top] = path.length();
                if (path.length() > 0) {
                    path.append(';');
                }
                path.append(frame.apply(tree.method(kept[c])));
                line(out, path, c);
            }
            return out.toString();
        }

        private void line(StringBuilder out, StringBuilder path, int k) {
            long count = tree.self(kept[k]) + prunedTotal[k];
            if (count > 0 && path.length() > 0) {
                out.append(path).append(' ').append(count).append('\n');
            }
        }
    }
}
