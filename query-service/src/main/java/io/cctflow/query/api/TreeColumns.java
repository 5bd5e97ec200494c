package io.cctflow.query.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import io.cctflow.core.Cct;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * The compact tree of {@code GET /api/v1/tree?format=columns}: the same nodes as the nested JSON,
 * as parallel arrays, one entry per node, in the order a flame graph draws them (depth first,
 * children by method signature then call-site line): {@code parent} (index of the parent in these
 * arrays, -1 for the start node), {@code method} (index into {@code methods}, the signatures
 * sorted), {@code line}, {@code self}, {@code total} and {@code id} (decimal strings; null in a
 * merged view). Several times smaller than the nested form and parsed without an object per node.
 */
final class TreeColumns implements JsonSerializable {
    private final Cct tree;
    private final List<Integer> kept;
    private final List<List<Integer>> children;
    private final boolean realIds;
    private final String[] methods;
    private final Map<Long, Integer> methodIndex;

    /**
     * @param kept the kept nodes of {@code tree}, parents first; {@code children} by kept position
     * @param realIds whether node ids are those of the stored tree (not of a merged view)
     */
    TreeColumns(Cct tree, List<Integer> kept, List<List<Integer>> children, boolean realIds, LongFunction<String> name) {
        this.tree = tree;
        this.kept = kept;
        this.children = children;
        this.realIds = realIds;
        Map<String, Long> idOf = new HashMap<>();
        for (int n : kept) {
            long m = tree.method(n);
            idOf.putIfAbsent(name.apply(m), m);
        }
        methods = idOf.keySet().toArray(String[]::new);
        Arrays.sort(methods);
        methodIndex = new HashMap<>();
        for (int i = 0; i < methods.length; i++) {
            methodIndex.put(idOf.get(methods[i]), i);
        }
        for (int n : kept) { // two method ids of one name (an unknown id is named by its hex): share the index
            methodIndex.putIfAbsent(tree.method(n), Arrays.binarySearch(methods, name.apply(tree.method(n))));
        }
    }

    /** Kept positions in drawing order: depth first, children by method signature, then line. */
    int[] order() {
        int[] rank = new int[kept.size()];
        int[] line = new int[kept.size()];
        for (int k = 0; k < rank.length; k++) {
            rank[k] = methodOf(k);
            line[k] = tree.callSiteLine(kept.get(k));
        }
        Comparator<Integer> byMethodThenLine = (a, b) -> {
            int c = Integer.compare(rank[a], rank[b]);
            return c != 0 ? c : Integer.compare(line[a], line[b]);
        };
        int[] out = new int[kept.size()];
        int[] stack = new int[Math.max(16, kept.size())];
        int top = 0;
        int size = 0;
        stack[top++] = 0;
        while (top > 0) {
            int k = stack[--top];
            out[size++] = k;
            List<Integer> cs = children.get(k);
            if (cs.size() > 1) {
                cs = new ArrayList<>(cs);
                cs.sort(byMethodThenLine);
            }
            for (int j = cs.size() - 1; j >= 0; j--) { // pushed last to first: the first child comes out next
                stack[top++] = cs.get(j);
            }
        }
        return out;
    }

    private int methodOf(int k) {
        return methodIndex.get(tree.method(kept.get(k)));
    }

    @Override
    public void serialize(JsonGenerator gen, SerializerProvider provider) throws IOException {
        int[] order = order();
        int[] position = new int[kept.size()]; // kept position -> index in the columns
        for (int i = 0; i < order.length; i++) {
            position[order[i]] = i;
        }
        int[] parent = new int[order.length];
        Arrays.fill(parent, -1);
        for (int k = 0; k < children.size(); k++) {
            for (int c : children.get(k)) {
                parent[position[c]] = position[k];
            }
        }
        gen.writeStartObject();
        gen.writeArrayFieldStart("methods");
        for (String m : methods) {
            gen.writeString(m);
        }
        gen.writeEndArray();
        gen.writeFieldName("parent");
        gen.writeArray(parent, 0, parent.length);
        int[] ints = new int[order.length];
        long[] longs = new long[order.length];
        for (int i = 0; i < order.length; i++) {
            ints[i] = methodOf(order[i]);
        }
        gen.writeFieldName("method");
        gen.writeArray(ints, 0, ints.length);
        for (int i = 0; i < order.length; i++) {
            ints[i] = tree.callSiteLine(kept.get(order[i]));
        }
        gen.writeFieldName("line");
        gen.writeArray(ints, 0, ints.length);
        for (int i = 0; i < order.length; i++) {
            longs[i] = tree.self(kept.get(order[i]));
        }
        gen.writeFieldName("self");
        gen.writeArray(longs, 0, longs.length);
        for (int i = 0; i < order.length; i++) {
            longs[i] = tree.total(kept.get(order[i]));
        }
        gen.writeFieldName("total");
        gen.writeArray(longs, 0, longs.length);
        if (realIds) {
            gen.writeArrayFieldStart("id");
            for (int k : order) {
                gen.writeString(Long.toString(tree.id(kept.get(k))));
            }
            gen.writeEndArray();
        } else {
            gen.writeNullField("id");
        }
        gen.writeEndObject();
    }

    @Override
    public void serializeWithType(JsonGenerator gen, SerializerProvider provider, TypeSerializer type)
            throws IOException {
        serialize(gen, provider);
    }
}
