package io.cctflow.graph.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.model.TruncationCounts;
import org.junit.jupiter.api.Test;

/** The bound of {@link WrittenWindows}: bytes counted, least recently used forgotten first. */
class WrittenWindowsTest {
    private static final int ARRAYS = 100; // 60 bytes of counts, 40 of ids

    @Test
    void forgetsTheLeastRecentlyUsedWindowsBeyondTheBound() {
        long entry = ARRAYS + 2L * "w1".length() + WrittenWindows.ENTRY_OVERHEAD_BYTES;
        WrittenWindows memory = new WrittenWindows(3 * entry);
        remember(memory, "w1");
        remember(memory, "w2");
        remember(memory, "w3");
        assertThat(memory.bytes()).isEqualTo(3 * entry);
        assertThat(memory.get("w1")).isNotNull(); // used: w2 is now the least recent
        remember(memory, "w4");
        assertThat(memory.size()).isEqualTo(3);
        assertThat(memory.get("w2")).isNull();
        assertThat(memory.get("w1")).isNotNull();
        remember(memory, "w3"); // replaced, not counted twice
        assertThat(memory.bytes()).isEqualTo(3 * entry);
    }

    @Test
    void uncodedCountsAndWindowsOverTheBoundAreNotRemembered() {
        WrittenWindows memory = new WrittenWindows(10_000);
        remember(memory, "w1");
        memory.remember("w1", null, TruncationCounts.NONE, new byte[8]); // the columns' layout: read next time
        assertThat(memory.get("w1")).isNull();
        assertThat(memory.bytes()).isZero();
        memory.remember("w2", new byte[20_000], TruncationCounts.NONE, new byte[8]);
        assertThat(memory.size()).isZero();
        WrittenWindows none = WrittenWindows.none();
        remember(none, "w1");
        assertThat(none.size()).isZero();
        assertThatThrownBy(() -> new WrittenWindows(-1)).hasMessageContaining(">= 0");
    }

    @Test
    void forgetAllEmptiesIt() {
        WrittenWindows memory = new WrittenWindows(10_000);
        remember(memory, "w1");
        remember(memory, "w2");
        memory.forgetAll();
        assertThat(memory.size()).isZero();
        assertThat(memory.bytes()).isZero();
    }

    private static void remember(WrittenWindows memory, String key) {
        memory.remember(key, new byte[60], new TruncationCounts(1, 0, 0, 0), new byte[40]);
    }
}
