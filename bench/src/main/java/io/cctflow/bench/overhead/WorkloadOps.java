package io.cctflow.bench.overhead;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * One unit of deterministic CPU-bound work, as a service thread might do it: a call chain 20 to
 * 60 frames deep (three methods calling each other in turn, so stacks have the depth and variety
 * a profiler sees in real code) that ends in one of three leaves: SHA-256 of 4 KiB, sorting 512
 * ints, or a naive recursive Fibonacci. The operation's number picks the depth and the leaf, so
 * every run does exactly the same work in the same order.
 *
 * <p>Not thread-safe: one instance per worker thread (the digest and buffers are reused, so the
 * work allocates almost nothing and the heap stays quiet).
 */
final class WorkloadOps {
    static final int MIN_DEPTH = 20;
    static final int MAX_DEPTH = 60;

    private final MessageDigest sha256;
    private final byte[] data = new byte[4096];
    private final int[] numbers = new int[512];

    WorkloadOps() {
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /** Runs operation {@code index}; returns a value that depends on all of its work. */
    long run(long index) {
        int depth = MIN_DEPTH + Math.floorMod(index * 7, MAX_DEPTH - MIN_DEPTH + 1);
        return descendA(depth, index);
    }

    private long descendA(int left, long index) {
        return left == 0 ? leaf(index) : descendB(left - 1, index) + 1;
    }

    private long descendB(int left, long index) {
        return left == 0 ? leaf(index) : descendC(left - 1, index) ^ 3;
    }

    private long descendC(int left, long index) {
        return left == 0 ? leaf(index) : descendA(left - 1, index) * 31;
    }

    private long leaf(long index) {
        switch (Math.floorMod(index, 3)) {
            case 0:
                return hash(index);
            case 1:
                return sort(index);
            default:
                return fibonacci(20 + Math.floorMod(index, 2));
        }
    }

    private long hash(long seed) {
        fill(seed);
        sha256.reset();
        sha256.update(data);
        return ByteBuffer.wrap(sha256.digest()).getLong();
    }

    private long sort(long seed) {
        long x = seed * 0x9E3779B97F4A7C15L + 1;
        for (int i = 0; i < numbers.length; i++) {
            x = xorshift(x);
            numbers[i] = (int) x;
        }
        Arrays.sort(numbers);
        return numbers[numbers.length / 2];
    }

    static long fibonacci(int n) {
        return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
    }

    private void fill(long seed) {
        long x = seed * 0xBF58476D1CE4E5B9L + 1;
        for (int i = 0; i < data.length; i += 8) {
            x = xorshift(x);
            for (int b = 0; b < 8; b++) {
                data[i + b] = (byte) (x >>> (8 * b));
            }
        }
    }

    private static long xorshift(long x) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        return x;
    }
}
