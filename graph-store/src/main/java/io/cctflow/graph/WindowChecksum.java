package io.cctflow.graph;

import io.cctflow.core.TreeCounts;
import io.cctflow.model.TruncationCounts;

/**
 * A 64-bit checksum of everything a stored {@code :Window} holds, written with it and checked on
 * every read: a window read while the samples job rewrites it can take each property from another
 * write (read-committed), and only a mix that differs from every version written can be told apart.
 * The sums that must agree (self by node and by thread) miss a mix of equally sized tables, such as
 * one write's per-method table with another's per-node ones; the checksum does not. Stateless and
 * thread-safe.
 */
public final class WindowChecksum {
    private static final long K = 0x9E3779B97F4A7C15L;

    private WindowChecksum() {
    }

    public static long of(TreeCounts c, TruncationCounts t) {
        long h = 1;
        for (long[] column : new long[][] {c.nodeIds(), c.self(), c.total(), c.threadNodeIds(), c.threadIds(),
                c.threadSelf(), c.threadDictIds(), c.methodIds(), c.methodSamples(), c.methodSelf()}) {
            h = mix(h, column.length);
            for (long v : column) {
                h = mix(h, v);
            }
        }
        for (String name : c.threadDictNames()) {
            h = mix(h, name.hashCode());
        }
        // none in windows written before raw names were kept: their checksums stay valid
        for (String name : c.rawThreadNames().names()) {
            h = mix(h, name.hashCode());
        }
        h = mix(mix(mix(mix(h, t.merged()), t.pending()), t.ambiguous()), t.expired());
        return h ^ (h >>> 29);
    }

    private static long mix(long h, long v) {
        long x = (h ^ v) * K;
        return x ^ (x >>> 32);
    }
}
