package io.cctflow.flink.sink;

import io.cctflow.core.collect.LongIntMap;

/**
 * A bounded memory of ids, for skipping writes the graph already has: two generations of at most
 * {@code capacity} ids each; when the current one is full it becomes the previous one and the
 * oldest generation is forgotten. An id is remembered at least until {@code capacity} other ids
 * were added after it, so the ids in steady use stay known; a forgotten id only costs one more
 * idempotent write. About 48 bytes per id, at most {@code 2 * capacity} ids. Not thread-safe.
 */
public final class RecentIds {
    private final int capacity;
    private LongIntMap current;
    private LongIntMap previous;

    /** @param capacity ids per generation, &gt;= 0; 0 remembers nothing */
    public RecentIds(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
        }
        this.capacity = capacity;
        this.current = new LongIntMap(Math.max(1, Math.min(capacity, 1024)));
        this.previous = new LongIntMap(1);
    }

    /** Whether {@code id} was added and is still remembered. */
    public boolean contains(long id) {
        return current.get(id) >= 0 || previous.get(id) >= 0;
    }

    /** Remembers {@code id}. */
    public void add(long id) {
        if (capacity == 0 || current.get(id) >= 0) {
            return;
        }
        current.put(id, 0);
        if (current.size() >= capacity) {
            previous = current;
            current = new LongIntMap(Math.min(capacity, 1024));
        }
    }
}
