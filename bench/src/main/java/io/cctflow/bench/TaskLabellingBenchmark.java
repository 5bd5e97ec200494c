package io.cctflow.bench;

import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import io.cctflow.core.task.TaskDefinition;
import io.cctflow.core.task.TaskLabeller;
import io.cctflow.core.task.TaskLabels;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * Labelling a tree of about 1,000,000 nodes after a new task definition is added (seed 002 Sect.
 * 3.3.3): {@link TaskLabeller#addDefinition} then {@link TaskLabels#update()}, which notices the new
 * definition and relabels the whole tree, matching each distinct method against the new definition
 * once. The target is under 1 s.
 *
 * <p>Before each invocation (not measured) a fresh labeller with two definitions (a prefix and a
 * regex with a named group) labels the tree, so every invocation starts from the same state; the
 * measured definition is a regex with a named group matching about a tenth of the methods.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgs = "-Xmx2g")
public class TaskLabellingBenchmark {
    Cct tree;
    final Map<Long, String> names = new HashMap<>();
    TaskLabels labels;
    TaskDefinition newDefinition;

    @Setup(Level.Trial)
    public void setUp() {
        long[] alphabet = new long[2_000];
        for (int i = 0; i < alphabet.length; i++) {
            String cls = "com.example." + (i % 5 == 0 ? "web" : "core") + ".C" + (i % 97);
            alphabet[i] = MethodId.of(cls, "m" + i, "()V");
            names.put(alphabet[i], cls + ".m" + i);
        }
        tree = RandomTrees.grow(alphabet, 1_000_000, 7);
        newDefinition = TaskDefinition.regex("new", "^com\\.example\\.core\\.(?<cls>C[0-9])\\.", "batch ${cls}");
        System.out.printf("%ntree: %,d nodes%n", tree.size());
    }

    @Setup(Level.Invocation)
    public void labelWithoutNewDefinition() {
        TaskLabeller labeller = new TaskLabeller(names::get, List.of(
                TaskDefinition.prefix("web", "com.example.web.", "web request"),
                TaskDefinition.regex("core", "^com\\.example\\.core\\.C(?<n>1[0-9])\\.", "core ${n}")));
        labels = labeller.label(tree);
    }

    @Benchmark
    public TaskLabels labelWithNewDefinitionOn1MNodes() {
        labels.labeller().addDefinition(newDefinition);
        labels.update();
        return labels;
    }
}
