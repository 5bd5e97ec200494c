package io.cctflow.bench.query;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Two deployments larger than the corpus: the corpus has about 40,000 CCT nodes, the tree and
 * compare goals ask for 100,000 and 200,000. Version v1 repeats the corpus stacks below synthetic
 * frames, {@code handle → GroupA.run | GroupB.run → route(line = copy)}, so every copy is a
 * distinct subtree of real shape: {@code GroupA.run}'s subtree gets about {@code treeNodes} nodes,
 * the whole tree about {@code diffNodes}. Version v2 replays v1 with each stack's count changed by
 * up to ±20 %, 2 % of the stacks with one corpus frame replaced by another corpus method, and 0.5 %
 * also through a method only v2 has. Each stack lands in one of 10 one-minute windows of one
 * instance per version.
 *
 * <p>Not thread-safe.
 */
final class SyntheticDeployments {
    static final String SERVICE = "bench-diff";
    static final String INSTANCE = "d-1";
    static final int WINDOWS = 10;
    static final long WINDOW_MILLIS = 60_000;
    static final MethodRecord HANDLE = MethodRecord.of("bench.synthetic.Dispatcher", "handle", "()V");
    static final MethodRecord GROUP_A = MethodRecord.of("bench.synthetic.GroupA", "run", "()V");
    static final MethodRecord GROUP_B = MethodRecord.of("bench.synthetic.GroupB", "run", "()V");
    static final MethodRecord ROUTE = MethodRecord.of("bench.synthetic.Dispatcher", "route", "()V");
    static final MethodRecord ADDED = MethodRecord.of("bench.synthetic.New", "added", "()V");
    /** The method the tree call starts at ({@code Class.method}, all overloads). */
    static final String TREE_METHOD = GROUP_A.className() + "." + GROUP_A.methodName();

    /** Node counts of what was written. */
    record Result(int nodesA, int nodesB, int treeNodes) {
    }

    private record Entry(MethodRecord group, int copy, int stack, long count, int window) {
    }

    private final CorpusStacks stacks;
    private final Random random;

    SyntheticDeployments(CorpusStacks stacks, long seed) {
        this.stacks = stacks;
        this.random = new Random(seed);
    }

    /** Builds both versions in memory and writes them, their windows starting at {@code startMillis}. */
    Result write(GraphWriter writer, int treeNodes, int diffNodes, long startMillis) {
        List<Entry> entries = new ArrayList<>();
        Cct a = new Cct(diffNodes + diffNodes / 4);
        int copy = 0;
        int treeSize = 0;
        for (MethodRecord group : List.of(GROUP_A, GROUP_B)) {
            int goal = group == GROUP_A ? treeNodes + 2 : diffNodes + 1; // root and handle are not in A's subtree
            for (; a.size() < goal; copy++) {
                for (int s = 0; s < stacks.stackCount() && a.size() < goal; s++) {
                    Entry e = new Entry(group, copy, s, 1 + random.nextInt(20), random.nextInt(WINDOWS));
                    entries.add(e);
                    add(a, e, -1, null);
                }
            }
            if (group == GROUP_A) {
                treeSize = a.size() - 2;
            }
        }
        Map<Integer, Cct> windowsA = new TreeMap<>();
        Map<Integer, Cct> windowsB = new TreeMap<>();
        Cct b = new Cct(a.size() + a.size() / 4);
        List<MethodRecord> corpusMethods = stacks.methods();
        for (Entry e : entries) {
            add(windowsA.computeIfAbsent(e.window(), w -> new Cct()), e, -1, null);
            long count = Math.max(1, Math.round(e.count() * (0.8 + 0.4 * random.nextDouble())));
            Entry e2 = new Entry(e.group(), e.copy(), e.stack(), count, e.window());
            int replaced = -1;
            MethodRecord replacement = null;
            if (random.nextInt(100) < 2 && stacks.depth(e.stack()) > 1) {
                replaced = 1 + random.nextInt(stacks.depth(e.stack()) - 1);
                replacement = corpusMethods.get(random.nextInt(corpusMethods.size()));
            }
            Cct window = windowsB.computeIfAbsent(e.window(), w -> new Cct());
            add(window, e2, replaced, replacement);
            add(b, e2, replaced, replacement);
            if (random.nextInt(1_000) < 5 && stacks.depth(e.stack()) > 1) {
                int at = 1 + random.nextInt(stacks.depth(e.stack()) - 1);
                add(window, e2, at, ADDED);
                add(b, e2, at, ADDED);
            }
        }
        System.out.printf("synthetic deployments: v1 %,d nodes (%,d below %s), v2 %,d nodes, %,d stacks each%n",
                a.size() - 1, treeSize, TREE_METHOD, b.size() - 1, entries.size());

        List<MethodRecord> methods = new ArrayList<>(corpusMethods);
        methods.addAll(List.of(HANDLE, GROUP_A, GROUP_B, ROUTE, ADDED));
        writer.writeMethods(methods);
        Map<Long, NodeRecord> nodes = new LinkedHashMap<>();
        for (Cct tree : List.of(a, b)) {
            for (NodeRecord n : CorpusStacks.nodes(tree)) {
                nodes.putIfAbsent(n.id(), n);
            }
        }
        NodeBatches.write(writer, List.copyOf(nodes.values()), "  synthetic topology");
        long end = startMillis + WINDOWS * WINDOW_MILLIS;
        for (String version : List.of("v1", "v2")) {
            writer.writeInstances(List.of(new InstanceRecord(SERVICE, version, INSTANCE, "host-d", 1, startMillis,
                    Map.of(), startMillis, end - 1)));
            String key = new ExecutionId(SERVICE, version, INSTANCE).key();
            List<WindowCounts> counts = new ArrayList<>();
            (version.equals("v1") ? windowsA : windowsB).forEach((w, tree) -> counts.add(new WindowCounts(key,
                    startMillis + w * WINDOW_MILLIS, startMillis + (w + 1) * WINDOW_MILLIS, TreeCounts.of(tree))));
            writer.writeWindowCounts(counts);
        }
        return new Result(a.size() - 1, b.size() - 1, treeSize);
    }

    private void add(Cct tree, Entry e, int replaced, MethodRecord replacement) {
        stacks.add(tree, new MethodRecord[] {HANDLE, e.group(), ROUTE}, new int[] {0, e.group() == GROUP_A ? 1 : 2,
                e.copy() + 1}, e.stack(), replaced, replacement, e.count());
    }
}
