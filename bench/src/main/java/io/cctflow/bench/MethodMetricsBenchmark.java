package io.cctflow.bench;

import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import io.cctflow.core.metrics.CalleeTime;
import io.cctflow.core.metrics.CallerTime;
import io.cctflow.core.metrics.MethodMetrics;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Shares;
import io.cctflow.core.metrics.ThreadTime;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Every metric of one method (method, self, callee, caller and thread time, recursion-aware) on a
 * tree of about 1,000,000 nodes merged from 12 threads; the target is under 50 ms. The single
 * metrics are measured too, to show where the time goes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = "-Xmx2g")
public class MethodMetricsBenchmark {
    Cct tree;
    long method;

    @Setup(Level.Trial)
    public void setUp() {
        long[] alphabet = new long[2_000];
        for (int i = 0; i < alphabet.length; i++) {
            alphabet[i] = MethodId.of("com.example.C" + (i % 97), "m" + i, "()V");
        }
        method = alphabet[42];
        tree = RandomTrees.grow(alphabet, 1_000_000, 7);
    }

    // JMH's @State takes an org.openjdk.jmh Scope, hence the qualified names below

    @Benchmark
    public MethodMetrics allMetricsOfOneMethodOn1MNodes() {
        return MethodMetrics.of(io.cctflow.core.metrics.Scope.whole(tree), method);
    }

    @Benchmark
    public MethodTime methodAndSelfTime() {
        return MethodTime.of(io.cctflow.core.metrics.Scope.whole(tree), method);
    }

    @Benchmark
    public Shares calleeTime() {
        return CalleeTime.of(io.cctflow.core.metrics.Scope.whole(tree), method);
    }

    @Benchmark
    public Shares callerTime() {
        return CallerTime.of(io.cctflow.core.metrics.Scope.whole(tree), method);
    }

    @Benchmark
    public Shares threadTime() {
        return ThreadTime.of(io.cctflow.core.metrics.Scope.whole(tree), method);
    }
}
