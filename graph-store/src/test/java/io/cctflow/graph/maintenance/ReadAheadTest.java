package io.cctflow.graph.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReadAheadTest {
    private final ExecutorService reader = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        reader.shutdownNow();
    }

    @Test
    void usesEveryKeyInOrderWithItsOwnReadAndReadsAtMostOneAhead() {
        for (int n = 0; n <= 7; n++) {
            List<Integer> keys = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                keys.add(100 + i);
            }
            AtomicInteger reads = new AtomicInteger();
            List<String> used = new ArrayList<>();
            List<Integer> readsSeenByUse = new ArrayList<>();
            ReadAhead.forEach(keys, reader, k -> {
                assertThat(Thread.currentThread().getName()).as("reads run on the reader").doesNotContain("main");
                reads.incrementAndGet();
                return "read " + k;
            }, (k, data) -> {
                used.add(k + ": " + data);
                readsSeenByUse.add(reads.get());
            });
            List<String> expected = new ArrayList<>();
            for (int k : keys) {
                expected.add(k + ": read " + k);
            }
            assertThat(used).as("n = %d", n).isEqualTo(expected);
            for (int i = 0; i < readsSeenByUse.size(); i++) {
                // while key i is used, keys 0..i have been read and at most key i + 1 besides
                assertThat(readsSeenByUse.get(i)).as("reads started while key %d of %d was used", i, n)
                        .isBetween(i + 1, Math.min(n, i + 2));
            }
        }
    }

    @Test
    void throwsWhatAReadThrowsAndUsesNoKeyAfterIt() {
        List<Integer> used = new ArrayList<>();
        IllegalStateException boom = new IllegalStateException("read of 2 failed");
        assertThatThrownBy(() -> ReadAhead.forEach(List.of(1, 2, 3), reader, k -> {
            if (k == 2) {
                throw boom;
            }
            return k;
        }, (k, data) -> used.add(k))).isSameAs(boom);
        assertThat(used).containsExactly(1);
    }

    @Test
    void throwsWhatUseThrowsAndErrorsAsThemselves() {
        assertThatThrownBy(() -> ReadAhead.forEach(List.of(1, 2, 3), reader, k -> k, (k, data) -> {
            throw new IllegalArgumentException("use of " + k);
        })).isInstanceOf(IllegalArgumentException.class).hasMessage("use of 1");
        OutOfMemoryError oom = new OutOfMemoryError("read of 1");
        assertThatThrownBy(() -> ReadAhead.forEach(List.of(1), reader, k -> {
            throw oom;
        }, (k, data) -> { })).isSameAs(oom);
    }
}
