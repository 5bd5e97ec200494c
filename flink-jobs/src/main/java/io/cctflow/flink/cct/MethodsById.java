package io.cctflow.flink.cct;

import io.cctflow.core.collect.LongIntMap;
import io.cctflow.model.MethodRecord;
import java.util.Arrays;

/**
 * The names of the methods a batch's new nodes may use, by method id: the batch's dictionary and
 * the methods of pending stacks merged with it. A method id held twice keeps its first record (as
 * {@code Map.putIfAbsent} would). Indexed on the first lookup only, without boxing, and reused
 * from batch to batch, so a batch that creates no node costs nothing here. Not thread-safe.
 */
final class MethodsById {
    private MethodRecord[] records = new MethodRecord[256];
    private int size;
    private final LongIntMap index = new LongIntMap(256);
    /** Records from this index on are not in {@link #index} yet. */
    private int indexed;

    /** Starts over with the methods of a batch's dictionary. */
    MethodsById reset(MethodRecord[] dictionary) {
        Arrays.fill(records, 0, size, null);
        size = 0;
        indexed = 0;
        index.clear();
        for (MethodRecord m : dictionary) {
            add(m);
        }
        return this;
    }

    /** Adds a method; a method id already held keeps its first record. */
    void add(MethodRecord method) {
        if (size == records.length) {
            records = Arrays.copyOf(records, size * 2);
        }
        records[size++] = method;
    }

    /** The record of {@code methodId}, or null if none was added. */
    MethodRecord get(long methodId) {
        for (; indexed < size; indexed++) {
            long id = records[indexed].id();
            if (index.get(id) < 0) {
                index.put(id, indexed);
            }
        }
        int i = index.get(methodId);
        return i < 0 ? null : records[i];
    }
}
