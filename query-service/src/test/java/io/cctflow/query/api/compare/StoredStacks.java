package io.cctflow.query.api.compare;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.CodeClassRecord;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random stack samples of one instance, kept in memory (the reference) and written through the
 * graph-store writer one window per stack group, as the samples job would.
 */
public final class StoredStacks {
    static final long WINDOW = 60_000;
    static final String SERVICE = "shop";

    /** One stack sample: frames outermost first, call-site lines, count, and the window it falls in. */
    public record Stack(MethodRecord[] frames, int[] lines, long count, int window) {
    }

    final ExecutionId execution;
    final List<Stack> stacks = new ArrayList<>();

    public StoredStacks(String version, String instance) {
        this.execution = new ExecutionId(SERVICE, version, instance);
    }

    public static MethodRecord method(int k) {
        return MethodRecord.of("com.example.C" + k, "m" + k, "()V");
    }

    /** Random stacks over {@code alphabet} methods, depth 1..maxDepth, in windows 0..windows-1. */
    public static List<Stack> random(Random random, int count, int maxDepth, int alphabet, int windows) {
        List<Stack> out = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            int depth = 1 + random.nextInt(maxDepth);
            MethodRecord[] frames = new MethodRecord[depth];
            int[] lines = new int[depth];
            for (int i = 0; i < depth; i++) {
                frames[i] = method(i == 0 ? 0 : random.nextInt(alphabet));
                lines[i] = i == 0 ? 0 : 1 + random.nextInt(3);
            }
            out.add(new Stack(frames, lines, 1 + random.nextInt(6), random.nextInt(windows)));
        }
        return out;
    }

    /**
     * The same stacks with counts changed by up to +-{@code spread} (0.5: 50 %) and, with
     * probability {@code p}, one frame replaced.
     */
    public static List<Stack> perturbed(List<Stack> stacks, Random random, double spread, double p, int alphabet) {
        List<Stack> out = new ArrayList<>();
        for (Stack s : stacks) {
            MethodRecord[] frames = s.frames().clone();
            if (frames.length > 1 && random.nextDouble() < p) {
                frames[1 + random.nextInt(frames.length - 1)] = method(random.nextInt(alphabet));
            }
            long count = Math.max(1, Math.round(s.count() * (1 - spread + 2 * spread * random.nextDouble())));
            out.add(new Stack(frames, s.lines(), count, s.window()));
        }
        return out;
    }

    public StoredStacks add(List<Stack> more) {
        stacks.addAll(more);
        return this;
    }

    /** The in-memory tree of this instance's stacks in windows [fromWindow, toWindow). */
    Cct tree(int fromWindow, int toWindow) {
        return treeOf(List.of(this), fromWindow, toWindow);
    }

    public static Cct treeOf(List<StoredStacks> instances, int fromWindow, int toWindow) {
        Cct tree = new Cct();
        for (StoredStacks i : instances) {
            for (Stack s : i.stacks) {
                if (s.window() >= fromWindow && s.window() < toWindow) {
                    add(tree, s);
                }
            }
        }
        return tree;
    }

    static void add(Cct tree, Stack s) {
        long[] ids = new long[s.frames().length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = s.frames()[i].id();
        }
        tree.addStack(ids, s.lines(), ids.length, tree.thread("main"), s.count());
    }

    /** Writes instance, methods, topology and one window per window index that has stacks. */
    public void write(GraphWriter writer) {
        Map<Integer, Cct> windows = new HashMap<>();
        Map<Long, MethodRecord> methods = new HashMap<>();
        for (Stack s : stacks) {
            add(windows.computeIfAbsent(s.window(), w -> new Cct()), s);
            for (MethodRecord m : s.frames()) {
                methods.put(m.id(), m);
            }
        }
        int last = windows.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
        writer.writeInstances(List.of(new InstanceRecord(SERVICE, execution.version(), execution.instance(), "host",
                1, 0, Map.of(), 0, (last + 1) * WINDOW)));
        writer.writeMethods(List.copyOf(methods.values()));
        Map<Long, NodeRecord> nodes = new HashMap<>();
        List<WindowCounts> counts = new ArrayList<>();
        windows.forEach((w, tree) -> {
            for (int n = 1; n < tree.size(); n++) {
                int rp = tree.recursiveParent(n);
                nodes.putIfAbsent(tree.id(n), new NodeRecord(tree.id(n), tree.id(tree.parent(n)), tree.method(n), tree.callSiteLine(n),
                        tree.depth(n), rp < 0 ? NodeRecord.NO_RECURSIVE_PARENT : tree.id(rp)));
            }
            counts.add(new WindowCounts(execution.key(), w * WINDOW, (w + 1) * WINDOW, TreeCounts.of(tree)));
        });
        writer.writeNodes(List.copyOf(nodes.values()));
        writer.writeWindowCounts(counts);
    }

    /** Fingerprints of methods 0..alphabet-1; {@code modified} gets another one, {@code extra} is added. */
    public static List<CodeClassRecord> manifest(String version, int alphabet, int modified, MethodRecord... extra) {
        List<CodeClassRecord> out = new ArrayList<>();
        List<MethodRecord> methods = new ArrayList<>(List.of(extra));
        for (int k = 0; k < alphabet; k++) {
            methods.add(method(k));
        }
        for (MethodRecord m : methods) {
            long fingerprint = m.signature().hashCode() + (m.equals(method(modified)) ? 1 : 0);
            out.add(new CodeClassRecord(SERVICE, version, m.className(), new String[] {m.methodName()},
                    new String[] {m.descriptor()}, new long[] {fingerprint}));
        }
        return out;
    }

    public static Map<String, Long> fingerprints(List<CodeClassRecord> classes) {
        Map<String, Long> out = new HashMap<>();
        for (CodeClassRecord c : classes) {
            out.put(c.signature(0), c.fingerprints()[0]);
        }
        return out;
    }
}
