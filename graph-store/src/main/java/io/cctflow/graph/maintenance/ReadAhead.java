package io.cctflow.graph.maintenance;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Walks keys in order, reading each one's data on a reader thread while the caller's thread uses
 * the previous one's: at most two keys' data are held at a time (the one in use and the one read
 * ahead). The caller's thread sees the keys in their order, one at a time, exactly as a plain loop
 * would, so whatever it sums or writes is the same; only the reads overlap its work (in the
 * roll-up pass: Neo4j reading and sending the next execution's windows while this JVM decodes,
 * sums and writes the current one's).
 *
 * <p>Stateless; the executor is the caller's (one thread suffices: one read runs at a time).
 */
final class ReadAhead {
    private ReadAhead() {
    }

    /**
     * Calls {@code use} with each key and {@code read} of it, in the order of {@code keys}; {@code read}
     * runs on {@code reader}, one key ahead.
     *
     * @throws RuntimeException or {@link Error} as {@code read} or {@code use} threw it; a read
     *     still running is cancelled
     */
    static <K, T> void forEach(List<K> keys, ExecutorService reader, Function<K, T> read, BiConsumer<K, T> use) {
        if (keys.isEmpty()) {
            return;
        }
        Future<T> next = reader.submit(() -> read.apply(keys.get(0)));
        try {
            for (int i = 0; i < keys.size(); i++) {
                T data = await(next);
                next = null;
                if (i + 1 < keys.size()) {
                    K k = keys.get(i + 1);
                    next = reader.submit(() -> read.apply(k));
                }
                use.accept(keys.get(i), data);
            }
        } finally {
            if (next != null) {
                next.cancel(true);
            }
        }
    }

    private static <T> T await(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading ahead", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
