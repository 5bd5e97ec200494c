package io.cctflow.agent.batch;

import java.util.Arrays;

/**
 * Distinct stacks of one batch with their sample counts: an open-addressing hash table keyed by
 * (frame indexes, call-site lines, thread, truncated). Looking up a stack that is already there
 * allocates nothing; only a new distinct stack copies its arrays.
 *
 * <p>Not thread-safe: the owning {@link BatchAggregator} guards it.
 */
final class StackTable {
    /** One distinct stack. Arrays are exactly as long as the stack. */
    static final class Entry {
        final int[] frames;
        final int[] lines;
        final String thread;
        final boolean truncated;
        final int hash;
        long count;

        Entry(int[] frames, int[] lines, String thread, boolean truncated, int hash) {
            this.frames = frames;
            this.lines = lines;
            this.thread = thread;
            this.truncated = truncated;
            this.hash = hash;
        }
    }

    private Entry[] slots;
    /** Entries in insertion order, so a batch lists stacks deterministically. */
    private Entry[] ordered;
    private int size;

    StackTable() {
        slots = new Entry[64];
        ordered = new Entry[32];
    }

    int size() {
        return size;
    }

    /** The i-th distinct stack in insertion order, {@code 0 <= i < size()}. */
    Entry entry(int i) {
        return ordered[i];
    }

    /**
     * Counts {@code count} samples of the given stack.
     *
     * @return false, adding nothing, when the stack is new and the table already holds
     *     {@code maxEntries} stacks
     */
    boolean add(int[] frames, int[] lines, int depth, String thread, boolean truncated,
            int maxEntries, long count) {
        int hash = hash(frames, lines, depth, thread, truncated);
        int mask = slots.length - 1;
        int i = hash & mask;
        for (Entry e = slots[i]; e != null; e = slots[i]) {
            if (e.hash == hash && e.truncated == truncated && e.frames.length == depth
                    && Arrays.equals(e.frames, 0, depth, frames, 0, depth)
                    && Arrays.equals(e.lines, 0, depth, lines, 0, depth)
                    && e.thread.equals(thread)) {
                e.count += count;
                return true;
            }
            i = (i + 1) & mask;
        }
        if (size >= maxEntries) {
            return false;
        }
        Entry e = new Entry(Arrays.copyOf(frames, depth), Arrays.copyOf(lines, depth), thread,
                truncated, hash);
        e.count = count;
        slots[i] = e;
        if (size == ordered.length) {
            ordered = Arrays.copyOf(ordered, size * 2);
        }
        ordered[size++] = e;
        if (size * 2 > slots.length) {
            rehash(slots.length * 2);
        }
        return true;
    }

    /** Whether the table holds this stack already. Allocates nothing. */
    boolean contains(int[] frames, int[] lines, int depth, String thread, boolean truncated) {
        int hash = hash(frames, lines, depth, thread, truncated);
        int mask = slots.length - 1;
        for (int i = hash & mask; slots[i] != null; i = (i + 1) & mask) {
            Entry e = slots[i];
            if (e.hash == hash && e.truncated == truncated && e.frames.length == depth
                    && Arrays.equals(e.frames, 0, depth, frames, 0, depth)
                    && Arrays.equals(e.lines, 0, depth, lines, 0, depth)
                    && e.thread.equals(thread)) {
                return true;
            }
        }
        return false;
    }

    private void rehash(int capacity) {
        Entry[] fresh = new Entry[capacity];
        int mask = capacity - 1;
        for (int k = 0; k < size; k++) {
            Entry e = ordered[k];
            int i = e.hash & mask;
            while (fresh[i] != null) {
                i = (i + 1) & mask;
            }
            fresh[i] = e;
        }
        slots = fresh;
    }

    private static int hash(int[] frames, int[] lines, int depth, String thread, boolean truncated) {
        int h = thread.hashCode() * 31 + (truncated ? 1 : 0);
        for (int i = 0; i < depth; i++) {
            h = (h * 31 + frames[i]) * 31 + lines[i];
        }
        // spread the bits: linear probing on the low bits suffers from polynomial hashes
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
