package io.cctflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ThreadNamesTest {
    @ParameterizedTest
    @CsvSource({
        "pool-3-thread-17, pool-#-thread-#",
        "main, main",
        "worker42, worker#",
        "2024-01-31 batch, #-#-# batch",
        "ForkJoinPool.commonPool-worker-123, ForkJoinPool.commonPool-worker-#",
        "007, #",
        "a1b22c333, a#b#c#",
    })
    void replacesEveryRunOfDigitsWithOneHash(String raw, String normalised) {
        assertThat(ThreadNames.normalise(raw)).isEqualTo(normalised);
    }

    @Test
    void returnsTheSameInstanceWhenThereIsNoDigit() {
        String name = new String("http-nio-exec");
        assertThat(ThreadNames.normalise(name)).isSameAs(name);
    }

    @Test
    void keepsNonAsciiDigitsAndHandlesEmptyAndMissingNames() {
        assertThat(ThreadNames.normalise("w-\u0663")).isEqualTo("w-\u0663");
        assertThat(ThreadNames.normalise("")).isEmpty();
        assertThat(ThreadNames.normalise(null)).isEqualTo(ThreadNames.UNKNOWN);
    }

    @ParameterizedTest
    @CsvSource({"pool-3-thread-17", "main", "a1b22c333", "#-#"})
    void isIdempotent(String raw) {
        String once = ThreadNames.normalise(raw);
        assertThat(ThreadNames.normalise(once)).isEqualTo(once);
    }

}
