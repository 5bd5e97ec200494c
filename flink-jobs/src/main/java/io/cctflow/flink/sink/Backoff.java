package io.cctflow.flink.sink;

import java.time.Duration;
import java.util.Random;

/**
 * Exponential backoff with full jitter (each delay uniform in [0, min(max, initial * 2^attempt)]),
 * within a total budget. Random source injected so tests are repeatable. Not thread-safe.
 */
final class Backoff {
    private final long initialMillis;
    private final long maxMillis;
    private final long budgetMillis;
    private final Random random;
    private int attempt;
    private long waitedMillis;

    Backoff(Duration initial, Duration max, Duration budget, Random random) {
        if (initial.toMillis() < 1 || max.compareTo(initial) < 0 || budget.isNegative()) {
            throw new IllegalArgumentException("need 1 ms <= initial <= max and budget >= 0");
        }
        this.initialMillis = initial.toMillis();
        this.maxMillis = max.toMillis();
        this.budgetMillis = budget.toMillis();
        this.random = random;
    }

    /** The next delay, or -1 when waiting it would exceed the budget. */
    long nextDelayMillis() {
        long ceiling = Math.min(maxMillis, initialMillis << Math.min(attempt, 30));
        long delay = 1 + (long) (random.nextDouble() * ceiling);
        if (waitedMillis + delay > budgetMillis) {
            return -1;
        }
        attempt++;
        waitedMillis += delay;
        return delay;
    }

    /** Starts over after a success. */
    void reset() {
        attempt = 0;
        waitedMillis = 0;
    }

    long waitedMillis() {
        return waitedMillis;
    }
}
