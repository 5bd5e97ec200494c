package io.cctflow.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.MethodId;
import io.cctflow.core.TreeCounts;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.graph.write.WindowContribution;
import io.cctflow.model.InstanceRecord;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import io.cctflow.servers.TestServers;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * {@link WindowWrite} against a real Neo4j: the second batch of a window is added without reading
 * it, and the subtask's metrics say how many windows were read and how many came from memory.
 */
class WindowWriteTest {
    private static final String EXEC = new ExecutionId("svc", "v1", "i-1").key();

    @Test
    void countsWindowsReadAndWindowsAddedToAsRemembered() {
        TestServers servers = TestServers.get();
        servers.cleanNeo4j();
        try (Driver driver = servers.newDriver()) {
            GraphSchema.ensure(driver, "");
            GraphWriter writer = new GraphWriter(driver, "");
            writer.writeInstances(List.of(new InstanceRecord("svc", "v1", "i-1", "h", 1, 0, Map.of(), 0, 120_000)));
            Metrics metrics = new Metrics();
            WindowWrite write = new WindowWrite(1 << 20);
            write.open(metrics);

            write.write(writer, List.of(contribution(0, 1), contribution(60_000, 2))); // two new windows
            write.write(writer, List.of(contribution(0, 3), contribution(60_000, 4), contribution(0, 5)));
            assertThat(metrics.counters.get("windowsRead").getCount()).isEqualTo(2);
            assertThat(metrics.counters.get("windowsRemembered").getCount()).isEqualTo(2);
            assertThat((Long) metrics.gauges.get("windowsRememberedBytes").getValue()).isPositive();

            WindowWrite forgetful = new WindowWrite(0);
            Metrics none = new Metrics();
            forgetful.open(none);
            forgetful.write(writer, List.of(contribution(0, 6)));
            forgetful.write(writer, List.of(contribution(0, 7)));
            assertThat(none.counters.get("windowsRead").getCount()).isEqualTo(2);
            assertThat(none.counters.get("windowsRemembered").getCount()).isZero();
            assertThat((Long) none.gauges.get("windowsRememberedBytes").getValue()).isZero();
        }
    }

    private static WindowContribution contribution(long start, long id) {
        Cct tree = new Cct();
        tree.addStack(new long[] {MethodId.of("A", "main", "()V")}, new int[] {1}, 1, tree.thread("main"), 3);
        return new WindowContribution(new WindowCounts(EXEC, start, start + 60_000, TreeCounts.of(tree),
                TruncationCounts.NONE), id);
    }

    /** Keeps what is registered, to read it back. */
    private static final class Metrics extends UnregisteredMetricsGroup {
        final Map<String, Counter> counters = new HashMap<>();
        final Map<String, Gauge<?>> gauges = new HashMap<>();

        @Override
        public Counter counter(String name) {
            return counter(name, new SimpleCounter());
        }

        @Override
        public <C extends Counter> C counter(String name, C counter) {
            counters.put(name, counter);
            return counter;
        }

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            gauges.put(name, gauge);
            return gauge;
        }
    }
}
