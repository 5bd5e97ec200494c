package io.cctflow.core.internal;

/**
 * A (node, thread) pair packed into one {@code long}, the key of per-thread self counts
 * ({@link LongSums}): node in the high 32 bits, thread in the low 32 (thread ids are never
 * negative). Stateless.
 */
public final class NodeThreadKey {
    private NodeThreadKey() {
    }

    public static long of(int node, int thread) {
        return ((long) node << 32) | thread;
    }

    public static int node(long key) {
        return (int) (key >>> 32);
    }

    public static int thread(long key) {
        return (int) key;
    }
}
