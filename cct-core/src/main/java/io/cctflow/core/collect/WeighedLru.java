package io.cctflow.core.collect;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Values by key, each with a weight, least recently used (got or put) evicted first once their
 * summed weight would pass a capacity; a value heavier than the whole capacity is not kept. For
 * caches bounded by the memory of what they hold. Not thread-safe: callers synchronise.
 *
 * @param <K> keys, with {@code equals} and {@code hashCode}
 * @param <V> values, never null
 */
public final class WeighedLru<K, V> {
    private final long capacity;
    private final LinkedHashMap<K, Entry<V>> entries = new LinkedHashMap<>(64, 0.75f, true);
    private long weight;

    private record Entry<V>(V value, long weight) {
    }

    /** @param capacity the most summed weight kept; 0 keeps nothing */
    public WeighedLru(long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** The value of {@code key}, now the most recently used, or null. */
    public V get(K key) {
        Entry<V> e = entries.get(key);
        return e == null ? null : e.value();
    }

    /**
     * Keeps {@code value} under {@code key} (replacing what was there) unless {@code weight} alone
     * passes the capacity, then evicts the least recently used until the sum is within it.
     */
    public void put(K key, V value, long weight) {
        if (weight < 0) {
            throw new IllegalArgumentException("weight must be >= 0, got " + weight);
        }
        if (weight > capacity) {
            return;
        }
        Entry<V> old = entries.put(key, new Entry<>(value, weight));
        this.weight += weight - (old == null ? 0 : old.weight());
        Iterator<Map.Entry<K, Entry<V>>> eldest = entries.entrySet().iterator();
        while (this.weight > capacity && eldest.hasNext()) {
            this.weight -= eldest.next().getValue().weight();
            eldest.remove();
        }
    }

    /** Empties it. */
    public void clear() {
        entries.clear();
        weight = 0;
    }

    /** The summed weight of the values held. */
    public long weight() {
        return weight;
    }

    /** Values held. */
    public int size() {
        return entries.size();
    }
}
