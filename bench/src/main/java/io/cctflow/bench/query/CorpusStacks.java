package io.cctflow.bench.query;

import io.cctflow.agent.batch.MethodId;
import io.cctflow.bench.pipeline.StackCorpus;
import io.cctflow.core.Cct;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The stack corpus as graph-store records: each corpus method as a {@link MethodRecord}, each
 * stack as method ids, merged into {@link Cct}s the way the samples job merges a batch (self to
 * the leaf, total to every node on the path, self per thread), optionally below synthetic frames.
 *
 * <p>Immutable; the {@link Cct}s it fills are the caller's.
 */
public final class CorpusStacks {
    private final StackCorpus corpus;
    private final MethodRecord[] methods;
    private final long[][] ids;

    public CorpusStacks(StackCorpus corpus) {
        this.corpus = corpus;
        methods = new MethodRecord[corpus.methodCount()];
        for (int m = 0; m < methods.length; m++) {
            MethodId id = corpus.method(m);
            methods[m] = MethodRecord.of(id.className(), id.methodName(), id.descriptor());
        }
        ids = new long[corpus.stackCount()][];
        for (int s = 0; s < ids.length; s++) {
            int[] frames = corpus.frames(s);
            ids[s] = new long[frames.length];
            for (int i = 0; i < frames.length; i++) {
                ids[s][i] = methods[frames[i]].id();
            }
        }
    }

    public StackCorpus corpus() {
        return corpus;
    }

    public int stackCount() {
        return ids.length;
    }

    List<MethodRecord> methods() {
        return List.of(methods);
    }

    /** The methods of stack {@code s}, outermost first. */
    MethodRecord frame(int s, int i) {
        return methods[corpus.frames(s)[i]];
    }

    int depth(int s) {
        return ids[s].length;
    }

    /**
     * A tree of {@code samples} stacks drawn from the corpus in proportion to how often they were
     * recorded, each distinct stack added once with its count (as the samples job merges a batch).
     */
    public Cct draw(Random random, int samples) {
        int[] counts = new int[ids.length];
        int[] touched = new int[Math.min(ids.length, samples)];
        int distinct = 0;
        for (int i = 0; i < samples; i++) {
            int s = corpus.draw(random);
            if (counts[s]++ == 0) {
                touched[distinct++] = s;
            }
        }
        Cct tree = new Cct();
        for (int t = 0; t < distinct; t++) {
            add(tree, touched[t], counts[touched[t]]);
        }
        return tree;
    }

    /** Adds {@code count} samples of stack {@code s} on its recorded thread; returns its leaf node. */
    public int add(Cct tree, int s, long count) {
        return tree.addStack(ids[s], corpus.lines(s), ids[s].length, tree.thread(corpus.thread(s)), count);
    }

    /**
     * Adds {@code count} samples of stack {@code s} below the synthetic frames {@code prefix} (with
     * their call-site lines), with frame {@code replaced} (an index into the stack, or -1) replaced
     * by method {@code replacement}.
     */
    void add(Cct tree, MethodRecord[] prefix, int[] prefixLines, int s, int replaced, MethodRecord replacement,
            long count) {
        int n = prefix.length + ids[s].length;
        long[] path = new long[n];
        int[] lines = new int[n];
        for (int i = 0; i < prefix.length; i++) {
            path[i] = prefix[i].id();
            lines[i] = prefixLines[i];
        }
        System.arraycopy(ids[s], 0, path, prefix.length, ids[s].length);
        System.arraycopy(corpus.lines(s), 0, lines, prefix.length, ids[s].length);
        if (replaced >= 0) {
            path[prefix.length + replaced] = replacement.id();
        }
        tree.addStack(path, lines, n, tree.thread(corpus.thread(s)), count);
    }

    /** Every stack once, in one tree: the union of what windows drawn from the corpus reference. */
    Cct union() {
        Cct all = new Cct();
        for (int s = 0; s < stackCount(); s++) {
            add(all, s, 1);
        }
        return all;
    }

    /** The topology of every node of {@code tree} but the virtual root, as the samples job writes it. */
    static List<NodeRecord> nodes(Cct tree) {
        List<NodeRecord> out = new ArrayList<>(tree.size() - 1);
        for (int n = 1; n < tree.size(); n++) {
            int rp = tree.recursiveParent(n);
            out.add(new NodeRecord(tree.id(n), tree.id(tree.parent(n)), tree.method(n), tree.callSiteLine(n),
                    tree.depth(n), rp == Cct.NONE ? NodeRecord.NO_RECURSIVE_PARENT : tree.id(rp)));
        }
        return out;
    }
}
