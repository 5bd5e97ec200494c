package io.cctflow.graph.read;

import io.cctflow.model.NodeRecord;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Node records by id, kept across requests. Correct without invalidation because a node's record
 * is a function of its id's path (parent, method, line, depth, recursive parent) and is never
 * rewritten with other values. Bounded: once it would hold more than {@code capacity} records it
 * is emptied and refills with what later queries read, so memory stays within about 100 bytes per
 * record of capacity. Thread-safe.
 */
final class TopologyCache {
    private final int capacity;
    private final ConcurrentHashMap<Long, NodeRecord> records = new ConcurrentHashMap<>();

    TopologyCache(int capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("topology cache capacity must be >= 0, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** The cached record of {@code id}, or null. */
    NodeRecord get(long id) {
        return records.get(id);
    }

    void putAll(Collection<NodeRecord> read) {
        if (read.size() > capacity) {
            return;
        }
        if (records.size() + read.size() > capacity) {
            records.clear();
        }
        for (NodeRecord n : read) {
            records.put(n.id(), n);
        }
    }
}
