package io.cctflow.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.flink.window.NodeCountsAccumulator;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

class NodeCountsAccumulatorTest {

    @RepeatedTest(50)
    void sumsEqualBruteForceSums(RepetitionInfo info) {
        Random random = new Random(info.getCurrentRepetition());
        TreeMap<Long, long[]> expected = new TreeMap<>();
        NodeCountsAccumulator acc = new NodeCountsAccumulator();
        for (int batch = 0; batch < 1 + random.nextInt(6); batch++) {
            TreeMap<Long, long[]> counts = new TreeMap<>();
            for (int i = 0; i < random.nextInt(30); i++) {
                counts.put((long) random.nextInt(60) - 30, new long[] {random.nextInt(5), 1 + random.nextInt(9)});
            }
            long[] ids = counts.keySet().stream().mapToLong(Long::longValue).toArray();
            long[] self = counts.values().stream().mapToLong(c -> c[0]).toArray();
            long[] total = counts.values().stream().mapToLong(c -> c[1]).toArray();
            acc.add(ids, self, total);
            counts.forEach((id, c) -> {
                long[] e = expected.computeIfAbsent(id, k -> new long[2]);
                e[0] += c[0];
                e[1] += c[1];
            });
        }
        assertThat(acc.nodeIds).containsExactly(expected.keySet().stream().mapToLong(Long::longValue).toArray());
        assertThat(acc.self).containsExactly(expected.values().stream().mapToLong(c -> c[0]).toArray());
        assertThat(acc.total).containsExactly(expected.values().stream().mapToLong(c -> c[1]).toArray());
    }
}
