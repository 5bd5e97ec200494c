package io.cctflow.query.api;

import io.cctflow.core.collect.WeighedLru;
import java.util.function.ToLongBiFunction;

/**
 * Values computed from stored windows, kept across requests under a key that holds the settled
 * versions of the windows read ({@link io.cctflow.graph.read.RangePlanner.Plan#settledVersions}),
 * least recently used evicted first. A window written since (a new one in the range, a late
 * batch, a re-rolled hour) changes the key, so the next request computes the new value; a null
 * key (a plan with a window written within the settle time, or a value not to be kept) is neither
 * served nor kept. Two uses: the merged trees of {@link TreeSource}, keyed by the versions alone
 * (a tree is a function of those windows' counts, whatever selection listed them), and the
 * finished answers of {@link TreeEndpoint}, keyed by the versions plus the resolved selection and
 * the request.
 *
 * <p>Bounded by weight ({@code weigher} of key and value); a value heavier than the whole bound
 * is not kept. Values handed out are shared between requests: nobody may modify them. Thread-safe.
 *
 * @param <V> what is kept
 */
final class VersionedCache<V> {
    private final WeighedLru<String, V> entries;
    private final ToLongBiFunction<String, V> weigher;

    /**
     * @param what what is kept, for the error message
     * @param capacity most weight kept; 0 keeps nothing
     */
    VersionedCache(String what, long capacity, ToLongBiFunction<String, V> weigher) {
        if (capacity < 0) {
            throw new IllegalArgumentException(what + " cache capacity must be >= 0, got " + capacity);
        }
        this.entries = new WeighedLru<>(capacity);
        this.weigher = weigher;
    }

    /** The value kept under this key, or null (also for a null key). */
    synchronized V get(String key) {
        return key == null ? null : entries.get(key);
    }

    /** Keeps the value, unless the key is null or it outweighs the bound. */
    synchronized void put(String key, V value) {
        if (key != null) {
            entries.put(key, value, weigher.applyAsLong(key, value));
        }
    }

    /** Weight held now. */
    synchronized long weight() {
        return entries.weight();
    }

    /** Values held now. */
    synchronized int size() {
        return entries.size();
    }
}
