package io.cctflow.graph;

import io.cctflow.core.Hashing;

/**
 * A fixed-size name (128 bits, 32 hex digits) of a set of fine windows, each named by its
 * execution, start and {@link WindowChecksum} (what its counts are): the roll-up pass stores it
 * with a sum of fine windows that may still change ({@code sources} on a provisional minute sum),
 * and a range read computes it over the fine windows it lists, to use the sum only when they are
 * the windows it was summed from, with the same counts. Each window is hashed on its own and the
 * hashes summed in two independent 64-bit halves, so the order does not matter; equal sets have
 * equal digests, and a window added, removed or with other counts changes it (up to a 2^-128
 * chance of two sets sharing one, beside the checksum's own 2^-64 per window).
 *
 * <p>Not thread-safe.
 */
public final class SourcesDigest {
    private static final long SEED = 0xbb67ae8584caa73bL;

    private long hi;
    private long lo;
    private int count;

    /** Adds a fine window. */
    public SourcesDigest add(String executionKey, long startMillis, long checksum) {
        long a = Hashing.fnv1a(Hashing.fnv1aStart(), executionKey);
        long b = Hashing.fnv1a(SEED, executionKey);
        hi += Hashing.fmix64(Hashing.fmix64(a ^ Hashing.fmix64(startMillis)) ^ Hashing.fmix64(checksum + SEED));
        lo += Hashing.fmix64(Hashing.fmix64(b ^ Long.rotateLeft(startMillis, 29) ^ SEED)
                ^ Hashing.fmix64(Long.rotateLeft(checksum, 41) ^ 0x9e3779b97f4a7c15L));
        count++;
        return this;
    }

    /** The digest of the windows added so far. */
    public String value() {
        return String.format("%016x%016x", hi ^ Hashing.fmix64(count), lo + count);
    }
}
