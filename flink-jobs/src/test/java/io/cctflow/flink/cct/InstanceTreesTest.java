package io.cctflow.flink.cct;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InstanceTreesTest {
    @Test
    void readsAKeysStoredChunksOnlyWhenItsTreeIsNotCached() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        InstanceTrees.StoredChunks none = () -> {
            reads.incrementAndGet();
            return List.of();
        };
        InstanceTrees trees = new InstanceTrees(1);

        InstanceTrees.Entry a = trees.get("a", none);
        assertThat(trees.get("a", none)).isSameAs(a);
        assertThat(reads).as("one read for the miss, none for the hit").hasValue(1);

        trees.get("b", none); // capacity 1: evicts a
        assertThat(trees.get("a", none)).isNotSameAs(a);
        assertThat(reads).hasValue(3);
    }
}
