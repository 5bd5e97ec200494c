package io.cctflow.agent.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;

import org.junit.jupiter.api.Test;

class BackoffTest {
    @Test
    void delaysDoubleWithJitterUpToTheMaximumAndResetAfterSuccess() {
        Backoff b = new Backoff(200, 5_000, new Random(3));

        long[] caps = {200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000};
        for (long cap : caps) {
            assertThat(b.nextDelayMillis()).isBetween(cap / 2, cap);
        }
        b.reset();
        assertThat(b.nextDelayMillis()).isBetween(100L, 200L);
    }

    @Test
    void jitterSpreadsTheDelaysOfAFleet() {
        Backoff b = new Backoff(200, 5_000, new Random(5));
        java.util.Set<Long> distinct = new java.util.HashSet<>();
        for (int i = 0; i < 100; i++) {
            b.reset();
            b.nextDelayMillis();
            distinct.add(b.nextDelayMillis()); // the second failure: cap 400
        }
        assertThat(distinct).hasSizeGreaterThan(50).allSatisfy(d -> assertThat(d).isBetween(200L, 400L));
    }

    @Test
    void manyFailuresStayAtTheMaximumWithoutOverflow() {
        Backoff b = new Backoff(200, 5_000, new Random(1));
        for (int i = 0; i < 10; i++) {
            b.nextDelayMillis();
        }
        for (int i = 0; i < 100; i++) {
            assertThat(b.nextDelayMillis()).isBetween(2_500L, 5_000L);
        }
    }
}
