package io.cctflow.bench;

import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.core.diff.DiffResult;
import io.cctflow.core.diff.TreeDiff;
import io.cctflow.core.diff.Weight;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Relaxed diff with weight matching ({@link TreeDiff#compare}) of two trees of about 200,000 nodes
 * each that differ a little, as when comparing two revisions. The target is under 1 s and
 * under 512 MiB of heap: the fork runs with {@code -Xmx512m}, so finishing at all shows the trees
 * and the diff fit, and the used heap after a GC is printed at the end of the trial.
 *
 * <p>The first tree is built from random stacks (depth 5..39, outer frames drawn from fewer
 * methods, so stacks share prefixes). The second replays the same stacks with counts perturbed by
 * up to ±20 %, 2 % of them with one frame replaced by another method (side effects), plus a few
 * hundred stacks through a method that only the new revision has (added); two methods are declared
 * modified.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = "-Xmx512m")
public class TreeDiffBenchmark {
    static final int NODES = 200_000;
    static final int MAX_DEPTH = 40;

    Cct first;
    Cct second;
    ChangeList changes;

    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(11);
        long[] alphabet = new long[2_000];
        for (int i = 0; i < alphabet.length; i++) {
            alphabet[i] = MethodId.of("com.example.C" + (i % 97), "m" + i, "()V");
        }
        long added = MethodId.of("com.example.New", "added", "()V");
        changes = new ChangeList(new long[] {added}, new long[0], new long[] {alphabet[3], alphabet[17]});

        first = new Cct(NODES + NODES / 4);
        List<long[]> stacks = new ArrayList<>();
        List<int[]> lines = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        while (first.size() < NODES) {
            int depth = 5 + random.nextInt(MAX_DEPTH - 5);
            long[] s = new long[depth];
            int[] l = new int[depth];
            for (int d = 0; d < depth; d++) {
                s[d] = alphabet[random.nextInt(Math.min(alphabet.length, 2 + d * 40))];
                l[d] = random.nextInt(4);
            }
            long count = 1 + random.nextInt(20);
            first.addStack(s, l, depth, count);
            stacks.add(s);
            lines.add(l);
            counts.add(count);
        }

        second = new Cct(NODES + NODES / 4);
        for (int i = 0; i < stacks.size(); i++) {
            long[] s = stacks.get(i);
            int[] l = lines.get(i);
            if (random.nextInt(100) < 2) {
                s = s.clone();
                int d = 1 + random.nextInt(s.length - 1);
                s[d] = alphabet[random.nextInt(alphabet.length)];
            }
            long count = Math.max(1, Math.round(counts.get(i) * (0.8 + 0.4 * random.nextDouble())));
            second.addStack(s, l, s.length, count);
            if (random.nextInt(1_000) < 5) {
                long[] n = s.clone();
                int d = 1 + random.nextInt(n.length - 1);
                n[d] = added;
                second.addStack(n, l, n.length, count);
            }
        }
        System.out.printf("%ntrees: %,d and %,d nodes%n", first.size(), second.size());
    }

    @Benchmark
    public DiffResult relaxedDiffWithWeightMatching200kNodes() {
        return TreeDiff.compare(first, second, changes, Weight.SELF, 0.99, 100);
    }

    @TearDown(Level.Trial)
    public void heap() {
        DiffResult r = relaxedDiffWithWeightMatching200kNodes();
        Runtime rt = Runtime.getRuntime();
        long peakish = rt.totalMemory() - rt.freeMemory();
        System.gc();
        long live = rt.totalMemory() - rt.freeMemory();
        System.out.printf("%ncommon %,d nodes, %d differences, %d ranked; heap: max %d MiB, used %d MiB "
                        + "before GC, %d MiB after GC (trees and last result live)%n",
                r.commonTreeSize(), r.differences().size(), r.weightDifferences().size(),
                rt.maxMemory() >> 20, peakish >> 20, live >> 20);
    }
}
