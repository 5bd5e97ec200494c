package io.cctflow.query.api;

import io.cctflow.core.collect.WeighedLru;
import io.cctflow.query.http.JsonHandler;

/**
 * The finished answers of {@code GET /api/v1/tree} (rendered bytes, as sent before gzip), kept
 * across requests, least recently used evicted first, so a repeated view (a reload, a shared
 * link, going back) skips pruning, the method-name lookups and serialisation. Keyed like the tree
 * cache ({@link TreeCache}) by the settled versions of the windows read, plus the resolved
 * selection and every parameter of the request ({@link io.cctflow.query.http.QueryParams#canonical}):
 * a window written since changes the key, and an answer of a plan with a window written within
 * the settle time is never kept. Only answers are kept, never an error.
 *
 * <p>Bounded by bytes: an answer weighs its body's length plus twice its key's length (UTF-16); one
 * heavier than the whole bound is not kept. The bytes handed out are shared: nobody may modify
 * them. Thread-safe.
 */
final class TreeAnswers {
    /** Default bound: 64 MiB, about ten answers of 100,000 nodes in columns. */
    static final long DEFAULT_BYTES = 64L << 20;

    private final WeighedLru<String, JsonHandler.Prerendered> entries;

    /** @param capacity most bytes kept; 0 keeps nothing */
    TreeAnswers(long capacity) {
        if (capacity < 0) {
            throw new IllegalArgumentException("tree answer cache capacity must be >= 0, got " + capacity);
        }
        this.entries = new WeighedLru<>(capacity);
    }

    /** The answer kept under this key, or null (also for null: an answer not to be kept). */
    synchronized JsonHandler.Prerendered get(String key) {
        return key == null ? null : entries.get(key);
    }

    /** Keeps the answer, unless the key is null or it outweighs the bound. */
    synchronized void put(String key, JsonHandler.Prerendered answer) {
        if (key != null) {
            entries.put(key, answer, answer.bytes().length + 2L * key.length());
        }
    }

    /** Bytes held now. */
    synchronized long weight() {
        return entries.weight();
    }

    /** Answers held now. */
    synchronized int size() {
        return entries.size();
    }
}
