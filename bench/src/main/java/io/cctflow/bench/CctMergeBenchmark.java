package io.cctflow.bench;

import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Merging pre-aggregated stacks of depth 50 into a CCT, as the samples job does per batch. Reported
 * as frames per second (one operation = one frame): the target is 20 million per core.
 *
 * <p>The stacks share prefixes the way real ones do: 1,000 distinct stacks drawn from a few hundred
 * methods, with the outer frames common to many stacks, each from one of 12 threads (its per-thread
 * self count is kept too). The tree is warm (every node exists), which is the steady state of a
 * long-running instance.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CctMergeBenchmark {
    static final int DEPTH = 50;
    static final int STACKS = 1_000;

    long[][] methods;
    int[][] lines;
    int[] threads;
    Cct tree;

    @Setup(Level.Trial)
    public void setUp() {
        Random random = new Random(1);
        long[] alphabet = new long[300];
        for (int i = 0; i < alphabet.length; i++) {
            alphabet[i] = MethodId.of("com.example.C" + i, "m" + i, "()V");
        }
        tree = new Cct();
        threads = new int[STACKS];
        methods = new long[STACKS][DEPTH];
        lines = new int[STACKS][DEPTH];
        for (int s = 0; s < STACKS; s++) {
            for (int d = 0; d < DEPTH; d++) {
                // outer frames drawn from fewer choices, so stacks share prefixes
                int choices = Math.min(alphabet.length, 1 + d * 6);
                methods[s][d] = alphabet[random.nextInt(choices)];
                lines[s][d] = d == 0 ? 0 : 10 + random.nextInt(3);
            }
            threads[s] = tree.thread(RandomTrees.THREADS[random.nextInt(RandomTrees.THREADS.length)]);
        }
        mergeAll(); // warm tree: the benchmark measures lookups, as in steady state
    }

    @Benchmark
    @OperationsPerInvocation(STACKS * DEPTH)
    public Cct mergeDepth50Stacks() {
        mergeAll();
        return tree;
    }

    private void mergeAll() {
        for (int s = 0; s < STACKS; s++) {
            tree.addStack(methods[s], lines[s], DEPTH, threads[s], 3);
        }
    }
}
