package io.cctflow.query.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cctflow.core.Cct;
import io.cctflow.query.http.JsonHandler;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.LongFunction;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The columns of {@code format=columns} hold exactly the nodes of the nested JSON ({@code
 * format=json}) of the same pruned tree, on random trees, shares and depths: decoded back into
 * nested form, the two are equal; and the columns come in drawing order.
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
    }

    /** The nested form of the columns: {id, method, line, self, total, children}. */
    public static ObjectNode decode(JsonNode c) {
        int n = c.get("parent").size();
        List<ObjectNode> nodes = new ArrayList<>(n);
        ObjectNode root = null;
        for (int i = 0; i < n; i++) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.set("id", c.get("id").isNull() ? JsonNodeFactory.instance.nullNode() : c.get("id").get(i));
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
