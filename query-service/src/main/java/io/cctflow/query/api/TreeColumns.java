package io.cctflow.query.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializable;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.jsontype.TypeSerializer;
import io.cctflow.core.Cct;
import io.cctflow.core.NodeId;
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
 * arrays, -1 for the start node), {@code method} (index into the per-response method dictionary
 * {@code methods}, the signatures sorted, and {@code methodIds}, their 64-bit ids as decimal
 * strings), {@code line}, {@code self} and {@code total}. Node ids are not listed: a node's id is a
 * function of its parent's id, method id and line ({@link NodeId#child}), so the id of any node
 * follows from {@code startId} (the start node's id as a decimal string; null in a merged view,
 * whose nodes have no stored ids) down its path. Several times smaller than the nested form, parsed
 * without an object per node, and written without one.
 */
final class TreeColumns implements JsonSerializable {
    private final Cct tree;
    private final List<Integer> kept;
    private final List<List<Integer>> children;
    private final boolean realIds;
    /** The method dictionary: ids ordered by signature, then id. */
    private final long[] methodIds;
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
        Map<Long, String> names = new HashMap<>();
        for (int n : kept) {
            names.computeIfAbsent(tree.method(n), name::apply);
        }
        Long[] ids = names.keySet().toArray(Long[]::new);
        Arrays.sort(ids, Comparator.<Long, String>comparing(names::get).thenComparing(Comparator.naturalOrder()));
        methodIds = new long[ids.length];
        methods = new String[ids.length];
        methodIndex = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            methodIds[i] = ids[i];
            methods[i] = names.get(ids[i]);
            methodIndex.put(ids[i], i);
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
        gen.writeArrayFieldStart("methodIds");
        for (long m : methodIds) {
            gen.writeString(Long.toString(m));
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
        gen.writeStringField("startId", realIds ? Long.toString(tree.id(kept.get(0))) : null);
        gen.writeEndObject();
    }

    @Override
    public void serializeWithType(JsonGenerator gen, SerializerProvider provider, TypeSerializer type)
            throws IOException {
        serialize(gen, provider);
    }
}
