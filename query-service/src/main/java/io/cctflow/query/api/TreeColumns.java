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
    private final int size;
    private final int[] kept;
    private final int[] firstChild;
    private final int[] childCount;
    private final boolean realIds;
    /** The method dictionary: ids ordered by signature, then id. */
    private final long[] methodIds;
    private final String[] methods;
    private final Map<Long, Integer> methodIndex;

    /**
     * @param kept the {@code size} kept nodes of {@code tree}, parents first; the kept children of
     *     position {@code k} are the positions {@code firstChild[k] .. firstChild[k] + childCount[k]}
     * @param realIds whether node ids are those of the stored tree (not of a merged view)
     */
    TreeColumns(Cct tree, int size, int[] kept, int[] firstChild, int[] childCount, boolean realIds,
            LongFunction<String> name) {
        this.tree = tree;
        this.size = size;
        this.kept = kept;
        this.firstChild = firstChild;
        this.childCount = childCount;
        this.realIds = realIds;
        Map<Long, String> names = new HashMap<>();
        for (int k = 0; k < size; k++) {
            names.computeIfAbsent(tree.method(kept[k]), name::apply);
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
        int[] rank = new int[size];
        int[] line = new int[size];
        for (int k = 0; k < size; k++) {
            rank[k] = methodOf(k);
            line[k] = tree.callSiteLine(kept[k]);
        }
        int[] out = new int[size];
        int[] stack = new int[Math.max(16, size)];
        int[] group = new int[16];
        int top = 0;
        int done = 0;
        stack[top++] = 0;
        while (top > 0) {
            int k = stack[--top];
            out[done++] = k;
            int m = childCount[k];
            if (group.length < m) {
                group = new int[m];
            }
            for (int j = 0; j < m; j++) {
                group[j] = firstChild[k] + j;
            }
            sortByMethodThenLine(group, m, rank, line);
            for (int j = m - 1; j >= 0; j--) { // pushed last to first: the first child comes out next
                stack[top++] = group[j];
            }
        }
        return out;
    }

    /** Sorts {@code positions[0 .. m)} by rank, then line: insertion sort (most sibling groups are small), boxed beyond. */
    private static void sortByMethodThenLine(int[] positions, int m, int[] rank, int[] line) {
        if (m > 32) {
            Integer[] boxed = new Integer[m];
            for (int j = 0; j < m; j++) {
                boxed[j] = positions[j];
            }
            Arrays.sort(boxed, Comparator.<Integer>comparingInt(a -> rank[a]).thenComparingInt(a -> line[a]));
            for (int j = 0; j < m; j++) {
                positions[j] = boxed[j];
            }
            return;
        }
        for (int j = 1; j < m; j++) {
            int p = positions[j];
            int i = j - 1;
            while (i >= 0 && (rank[positions[i]] > rank[p] || rank[positions[i]] == rank[p] && line[positions[i]] > line[p])) {
                positions[i + 1] = positions[i];
                i--;
            }
            positions[i + 1] = p;
        }
    }

    private int methodOf(int k) {
        return methodIndex.get(tree.method(kept[k]));
    }

    @Override
    public void serialize(JsonGenerator gen, SerializerProvider provider) throws IOException {
        int[] order = order();
        int[] position = new int[size]; // kept position -> index in the columns
        for (int i = 0; i < order.length; i++) {
            position[order[i]] = i;
        }
        int[] parent = new int[order.length];
        Arrays.fill(parent, -1);
        for (int k = 0; k < size; k++) {
            for (int c = firstChild[k]; c < firstChild[k] + childCount[k]; c++) {
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
            ints[i] = tree.callSiteLine(kept[order[i]]);
        }
        gen.writeFieldName("line");
        gen.writeArray(ints, 0, ints.length);
        for (int i = 0; i < order.length; i++) {
            longs[i] = tree.self(kept[order[i]]);
        }
        gen.writeFieldName("self");
        gen.writeArray(longs, 0, longs.length);
        for (int i = 0; i < order.length; i++) {
            longs[i] = tree.total(kept[order[i]]);
        }
        gen.writeFieldName("total");
        gen.writeArray(longs, 0, longs.length);
        gen.writeStringField("startId", realIds ? Long.toString(tree.id(kept[0])) : null);
        gen.writeEndObject();
    }

    @Override
    public void serializeWithType(JsonGenerator gen, SerializerProvider provider, TypeSerializer type)
            throws IOException {
        serialize(gen, provider);
    }
}
