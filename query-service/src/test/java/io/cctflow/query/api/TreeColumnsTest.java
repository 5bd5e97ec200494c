package io.cctflow.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cctflow.core.Cct;
import io.cctflow.core.NodeId;
import io.cctflow.query.http.JsonHandler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongFunction;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The columns of {@code format=columns} hold exactly the nodes of the nested JSON ({@code
 * format=json}) of the same pruned tree, on random trees, shares and depths: decoded back into
 * nested form (each node's id derived from {@code startId} down its path with cct-core's {@link
 * NodeId#child}), the two are equal; the decoded nodes are exactly those of cct-core's tree that
 * the pruning rule keeps, with their ids, parents, methods, lines and counts; and the columns come
 * in drawing order.
 */
public class TreeColumnsTest {
    @Property(tries = 200)
    void columnsDecodeToTheNestedJson(@ForAll long seed, @ForAll @IntRange(min = 1, max = 400) int size,
            @ForAll @IntRange(min = 0, max = 30) int minSharePercent, @ForAll @IntRange(min = 1, max = 12) int maxDepth,
            @ForAll boolean realIds) {
        Random random = new Random(seed);
        Cct tree = randomTree(random, size);
        // a signature per method id; one unknown id (named by its hex) among them
        LongFunction<String> name = id -> id == 0 ? "root" : id == 7 ? "0x7" : "com.p" + (id % 3) + ".C.m" + id + "()V";
        int start = random.nextInt(3) == 0 ? random.nextInt(tree.size()) : Cct.ROOT;
        TreeEndpoint.Pruned pruned = TreeEndpoint.Pruned.of(tree, start, minSharePercent / 100.0, maxDepth, 1_000_000);

        JsonNode nested = JsonHandler.json().valueToTree(pruned.json(realIds, null, name));
        JsonNode columns = JsonHandler.json().valueToTree(pruned.columns(realIds, name));

        assertThat(canonical(decode(columns))).isEqualTo(canonical(nested));
        assertDrawingOrder(columns);
        if (realIds) {
            assertThat(decodedNodes(columns)).isEqualTo(keptNodes(tree, start, minSharePercent / 100.0, maxDepth, name));
        } else {
            assertThat(columns.get("startId").isNull()).as("a merged view has no ids").isTrue();
        }
    }

    /** Per node id: (parent id, method, line, self, total) of the decoded columns. */
    static Map<Long, List<Object>> decodedNodes(JsonNode c) {
        Map<Long, List<Object>> out = new HashMap<>();
        long[] ids = ids(c);
        for (int i = 0; i < ids.length; i++) {
            int p = c.get("parent").get(i).asInt();
            out.put(ids[i], List.of(p < 0 ? "start" : ids[p], c.get("methods").get(c.get("method").get(i).asInt()).asText(),
                    c.get("line").get(i).asInt(), c.get("self").get(i).asLong(), c.get("total").get(i).asLong()));
        }
        return out;
    }

    /**
     * The brute-force reference of {@link #decodedNodes}, from cct-core's tree: the start node, and
     * every node whose parent is kept, with samples, at least minShare of the start's total and at
     * most maxDepth below it.
     */
    static Map<Long, List<Object>> keptNodes(Cct tree, int start, double minShare, int maxDepth, LongFunction<String> name) {
        boolean[] kept = new boolean[tree.size()];
        kept[start] = true;
        long threshold = (long) Math.ceil(minShare * tree.total(start));
        Map<Long, List<Object>> out = new HashMap<>();
        out.put(tree.id(start), List.of("start", name.apply(tree.method(start)), tree.callSiteLine(start),
                tree.self(start), tree.total(start)));
        for (int n = 1; n < tree.size(); n++) { // parents before children
            if (n != start && kept[tree.parent(n)] && tree.total(n) > 0 && tree.total(n) >= threshold
                    && tree.depth(n) - tree.depth(start) <= maxDepth) {
                kept[n] = true;
                out.put(tree.id(n), List.of(tree.id(tree.parent(n)), name.apply(tree.method(n)), tree.callSiteLine(n),
                        tree.self(n), tree.total(n)));
            }
        }
        return out;
    }

    /** Every node's id: the start's given, the others {@link NodeId#child} of their parent's; null without a start id. */
    static long[] ids(JsonNode c) {
        if (c.get("startId").isNull()) {
            return null;
        }
        int n = c.get("parent").size();
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            int p = c.get("parent").get(i).asInt();
            ids[i] = p < 0 ? Long.parseLong(c.get("startId").asText())
                    : NodeId.child(ids[p], Long.parseLong(c.get("methodIds").get(c.get("method").get(i).asInt()).asText()),
                            c.get("line").get(i).asInt());
        }
        return ids;
    }

    /** The nested form of the columns: {id, method, line, self, total, children}, ids derived ({@link #ids}). */
    public static ObjectNode decode(JsonNode c) {
        int n = c.get("parent").size();
        List<ObjectNode> nodes = new ArrayList<>(n);
        ObjectNode root = null;
        long[] ids = ids(c);
        for (int i = 0; i < n; i++) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            if (ids == null) {
                o.putNull("id");
            } else {
                o.put("id", Long.toString(ids[i]));
            }
            o.put("method", c.get("methods").get(c.get("method").get(i).asInt()).asText());
            o.put("line", c.get("line").get(i).asInt());
            o.put("self", c.get("self").get(i).asLong());
            o.put("total", c.get("total").get(i).asLong());
            o.putArray("children");
            nodes.add(o);
            int p = c.get("parent").get(i).asInt();
            if (p < 0) {
                assertThat(root).as("one start node").isNull();
                root = o;
            } else {
                assertThat(p).as("parents before children").isLessThan(i);
                ((ArrayNode) nodes.get(p).get("children")).add(o);
            }
        }
        return root;
    }

    /** Depth first, siblings by method signature then line. */
    static void assertDrawingOrder(JsonNode c) {
        int n = c.get("parent").size();
        int[] depth = new int[n];
        int[] lastChild = new int[n];
        java.util.Arrays.fill(lastChild, -1);
        for (int i = 1; i < n; i++) {
            int p = c.get("parent").get(i).asInt();
            depth[i] = depth[p] + 1;
            assertThat(depth[i]).as("depth first: a node follows its parent's subtree start").isLessThanOrEqualTo(depth[i - 1] + 1);
            assertThat(i == p + 1 || lastChild[p] >= 0).as("depth first: the first child follows its parent").isTrue();
            if (lastChild[p] >= 0) {
                int a = lastChild[p];
                String ma = c.get("methods").get(c.get("method").get(a).asInt()).asText();
                String mb = c.get("methods").get(c.get("method").get(i).asInt()).asText();
                int cmp = ma.compareTo(mb);
                assertThat(cmp < 0 || cmp == 0 && c.get("line").get(a).asInt() < c.get("line").get(i).asInt())
                        .as("siblings by method then line").isTrue();
            }
            lastChild[p] = i;
        }
    }

    /** Children sorted by (method, line), so two nestings of the same nodes compare equal. */
    static JsonNode canonical(JsonNode node) {
        ObjectNode out = node.deepCopy();
        List<JsonNode> kids = new ArrayList<>();
        node.get("children").forEach(k -> kids.add(canonical(k)));
        kids.sort(Comparator.<JsonNode, String>comparing(k -> k.get("method").asText()).thenComparingInt(k -> k.get("line").asInt()));
        out.putArray("children").addAll(kids);
        return out;
    }

    static Cct randomTree(Random random, int size) {
        Cct tree = new Cct();
        while (tree.size() < size) {
            int parent = random.nextInt(tree.size());
            tree.child(parent, 1 + random.nextInt(12), random.nextInt(4));
        }
        long[] total = new long[tree.size()];
        long[] self = new long[tree.size()];
        for (int i = tree.size() - 1; i >= 0; i--) {
            self[i] = i == 0 ? 0 : random.nextInt(5);
            total[i] += self[i];
            if (i > 0) {
                total[tree.parent(i)] += total[i];
            }
        }
        for (int i = 0; i < tree.size(); i++) {
            tree.addCounts(i, self[i], total[i]);
        }
        return tree;
    }
}
