package io.cctflow.graph.read;

import io.cctflow.graph.NodeNumbering;
import io.cctflow.graph.NodeNumbers;
import io.cctflow.graph.PackedLongs;
import io.cctflow.graph.Sessions;
import io.cctflow.graph.StoreStamp;
import io.cctflow.graph.UnknownNodeNumbersException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.TransactionConfig;
import org.neo4j.driver.Value;
import org.neo4j.driver.types.TypeSystem;

/**
 * Runs this package's read queries: one read transaction per query, always with parameters, none
 * built from user input, each terminated by Neo4j when it runs longer than the transaction timeout
 * (if one is given); and decodes the stored arrays.
 *
 * <p>Thread-safe as far as the {@link Driver} is; the caller owns the driver.
 */
final class Reads {
    private final Driver driver;
    private final String database;
    private final TransactionConfig transaction;
    /** The store's node numbers learnt by this reader's window reads ({@link WindowRows}). */
    private final NodeNumbers numbers;

    /** @param timeout each read transaction's timeout; null: the server's {@code db.transaction.timeout} */
    Reads(Driver driver, String database, Duration timeout) {
        this.driver = driver;
        this.database = database;
        this.numbers = new NodeNumbers(driver, database);
        this.transaction = timeout == null ? TransactionConfig.empty()
                : TransactionConfig.builder().withTimeout(timeout).build();
    }

    <T> List<T> read(String query, Map<String, Object> params, Function<Record, T> map) {
        return fold(query, params, ArrayList::new, (out, r) -> out.add(map.apply(r)));
    }

    /**
     * The records of {@code query} folded into an accumulator as the driver streams them (none
     * held beyond the driver's fetch): a fresh one from {@code fresh} for every run of the
     * transaction, so a run the driver repeats (a transient error) starts from nothing.
     */
    <A> A fold(String query, Map<String, Object> params, Supplier<A> fresh, BiConsumer<A, Record> fold) {
        try (Session session = Sessions.open(driver, database)) {
            return session.executeRead(tx -> {
                A acc = fresh.get();
                tx.run(query, params).forEachRemaining(r -> fold.accept(acc, r));
                return acc;
            }, transaction);
        }
    }

    /** The node numbers learnt so far, for decoding windows read in {@link #fold} ({@link NodeNumbers#cached}). */
    NodeNumbering numbering() {
        return numbers.cached();
    }

    /** Learns the node numbers a window read could not decode, outside any transaction of this reader. */
    void learn(UnknownNodeNumbersException e) {
        numbers.learn(e);
    }

    /** The version now of the store stamp {@code name} ({@link StoreStamp}), null when none was set yet. */
    String stamp(String name) {
        Value v = read(StoreStamp.READ, Map.of("name", name), r -> r.get("version")).get(0);
        return v.isNull() ? null : v.asString();
    }

    static Map<String, Object> params(Object... keyValues) {
        Map<String, Object> m = new HashMap<>(); // Map.of rejects the null values we use for "any"
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put((String) keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    /**
     * A stored long array: packed ({@link PackedLongs}, how windows are written) or a list (node
     * columns, and windows written before packing); absent (a window written before the property
     * existed) reads as empty.
     */
    static long[] longs(Value list) {
        if (list.isNull()) {
            return new long[0];
        }
        if (list.hasType(TypeSystem.getDefault().BYTES())) {
            return PackedLongs.unpack(list.asByteArray());
        }
        long[] out = new long[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i).asLong();
        }
        return out;
    }

    static String[] strings(Value list) {
        if (list.isNull()) {
            return new String[0];
        }
        String[] out = new String[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = list.get(i).asString();
        }
        return out;
    }
}
