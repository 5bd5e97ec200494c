package io.cctflow.core;

/**
 * The stable 64-bit hashes behind method and node ids. They must give the same value in every
 * JVM, every run and every language that reimplements them, so they are spelled out here rather
 * than taken from {@link String#hashCode()} or {@link java.util.Objects#hash}.
 *
 * <p>Public for the agent's code fingerprints, which feed a stream of tokens (strings and ints)
 * into one FNV-1a state and finish it with {@link #fmix64}. Stateless and thread-safe.
 */
public final class Hashing {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private Hashing() {
    }

    /** FNV-1a over the UTF-16 code units of {@code s}, continuing from {@code h}. */
    public static long fnv1a(long h, CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= FNV_PRIME;
        }
        return h;
    }

    /** FNV-1a over the two 16-bit halves of {@code v} (low half first), continuing from {@code h}. */
    public static long fnv1a(long h, int v) {
        h ^= v & 0xffff;
        h *= FNV_PRIME;
        h ^= v >>> 16;
        h *= FNV_PRIME;
        return h;
    }

    public static long fnv1aStart() {
        return FNV_OFFSET;
    }

    /** MurmurHash3's 64-bit finaliser: every input bit affects every output bit. */
    public static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
