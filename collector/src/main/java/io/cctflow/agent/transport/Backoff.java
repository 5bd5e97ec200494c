package io.cctflow.agent.transport;

import java.util.Random;

/**
 * Exponential backoff with jitter: the n-th consecutive failure waits a uniformly random time in
 * [cap/2, cap], where cap = min(max, initial * 2^n). The jitter keeps a fleet whose broker came
 * back from reconnecting in lockstep; the {@link Random} is injected for tests.
 *
 * <p>Thread safety: not thread-safe; owned by the sender thread.
 */
final class Backoff {
    private final long initialMillis;
    private final long maxMillis;
    private final Random random;
    private int failures;

    Backoff(long initialMillis, long maxMillis, Random random) {
        if (initialMillis <= 0 || maxMillis < initialMillis) {
            throw new IllegalArgumentException("need 0 < initial <= max, was " + initialMillis + ", " + maxMillis);
        }
        this.initialMillis = initialMillis;
        this.maxMillis = maxMillis;
        this.random = random;
    }

    /** Records a failure and returns how long to wait before the next attempt. */
    long nextDelayMillis() {
        long cap = initialMillis << Math.min(failures, 30);
        if (cap <= 0 || cap > maxMillis) {
            cap = maxMillis;
        }
        failures = Math.min(failures + 1, 31);
        long half = cap / 2;
        return half + (long) (random.nextDouble() * (cap - half + 1));
    }

    /** Forgets the failures after a success. */
    void reset() {
        failures = 0;
    }
}
