package io.cctflow.graph.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.model.NodeRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologyCacheTest {
    private static NodeRecord node(long id) {
        return new NodeRecord(id, 1, 2, 3, 4, NodeRecord.NO_RECURSIVE_PARENT);
    }

    @Test
    void keepsRecordsUntilTheCapacityWouldBeExceededThenStartsOver() {
        TopologyCache cache = new TopologyCache(3);
        cache.putAll(List.of(node(10), node(11)));
        assertThat(cache.get(10)).isEqualTo(node(10));
        cache.putAll(List.of(node(12)));
        assertThat(cache.get(11)).isEqualTo(node(11));
        cache.putAll(List.of(node(13)));
        assertThat(cache.get(10)).isNull();
        assertThat(cache.get(13)).isEqualTo(node(13));
    }

    @Test
    void aReadLargerThanTheCapacityIsNotCached() {
        TopologyCache cache = new TopologyCache(1);
        cache.putAll(List.of(node(10)));
        cache.putAll(List.of(node(11), node(12)));
        assertThat(cache.get(10)).isEqualTo(node(10));
        assertThat(cache.get(11)).isNull();
        TopologyCache off = new TopologyCache(0);
        off.putAll(List.of(node(10)));
        assertThat(off.get(10)).isNull();
        assertThatThrownBy(() -> new TopologyCache(-1)).hasMessageContaining(">= 0");
    }
}
