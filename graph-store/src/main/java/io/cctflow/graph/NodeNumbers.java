package io.cctflow.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;
import org.neo4j.driver.TransactionContext;

/**
 * The store's numbering of calling-context nodes ({@code CctNode.seq}: 0, 1, 2, ... in the order
 * nodes are completed), what packed format 4 ({@link PackedWindow}) codes a window's node ids by:
 * about one byte a node where a 64-bit path hash takes seven.
 *
 * <p><b>In the store</b>: one {@code (:NodeNumbering {name: 'cct-nodes', epoch, next})} holds the
 * next number and the numbering's epoch, a random nonzero tag set when the node is created (a new
 * store, or one wiped, gets another). {@link #numberNew} gives the next numbers to the complete
 * nodes (those with a {@code methodId}; a placeholder parent waits for its own write) that have
 * none, under the write lock of that node, so two writers never give one number twice (the
 * {@code cct_node_seq} constraint would refuse it). A number is never given to another node: nodes
 * are never deleted but by wiping the store, which starts a new epoch.
 *
 * <p><b>Here</b>: what this JVM has learnt of the numbering, per epoch: numbers to ids for readers
 * ({@link #cached}, lock-free, learnt by {@link #learn} outside any transaction), ids to numbers
 * for writers ({@link #in}, read in the writer's own transaction). Within one epoch what was learnt
 * never goes stale; a read in another epoch forgets it. Thread-safe.
 */
public final class NodeNumbers {
    /** The name of the store's numbering node. */
    static final String NAME = "cct-nodes";
    /** Numbers learnt together: the chunk a missing number falls in, one index range seek each. */
    static final int CHUNK = 1024;
    /**
     * Pairs a writer keeps ({@link #in}) before it starts afresh: a bound on its heap (about 150
     * bytes a pair in two maps, so ~40 MB) for a store of many services' nodes, where one writer
     * meets a few services' nodes again and again.
     */
    static final int MAX_PAIRS = 250_000;

    /**
     * Takes the numbering's write lock, creating it on a new store: a property set (and removed
     * by {@link #ADVANCE} in the same transaction, so never committed) takes it until the
     * transaction ends, and {@code next} is read after it, so it is the latest committed. (A
     * {@code SET k.next = k.next} did not serialise two writers: they gave one number twice.)
     */
    private static final String LOCK = """
            MERGE (k:NodeNumbering {name: $name})
              ON CREATE SET k.epoch = $epoch, k.next = 0
            SET k.locked = true
            WITH k
            RETURN k.next AS next
            """;

    /** Numbers the complete nodes among {@code $ids} that have none, in id order, from {@code $next}. */
    private static final String NUMBER = """
            UNWIND $ids AS id
            MATCH (n:CctNode {id: id})
            WHERE n.seq IS NULL AND n.methodId IS NOT NULL
            WITH DISTINCT n ORDER BY n.id
            WITH collect(n) AS fresh
            UNWIND range(0, size(fresh) - 1) AS i
            WITH fresh[i] AS n, $next + i AS seq
            SET n.seq = seq
            RETURN count(*) AS numbered
            """;

    /** {@link #NUMBER} for the complete nodes of a store written before numbers, a batch at a time. */
    private static final String NUMBER_UNNUMBERED = """
            MATCH (n:CctNode)
            WHERE n.seq IS NULL AND n.methodId IS NOT NULL
            WITH n ORDER BY n.id LIMIT $limit
            WITH collect(n) AS fresh
            UNWIND range(0, size(fresh) - 1) AS i
            WITH fresh[i] AS n, $next + i AS seq
            SET n.seq = seq
            RETURN count(*) AS numbered
            """;

    private static final String ADVANCE = "MATCH (k:NodeNumbering {name: $name}) SET k.next = k.next + $numbered REMOVE k.locked";

    private static final String EPOCH = "MATCH (k:NodeNumbering {name: $name}) RETURN k.epoch AS epoch";

    private static final String NUMBERS_OF = """
            UNWIND $ids AS id
            MATCH (n:CctNode {id: id})
            WHERE n.seq IS NOT NULL
            RETURN n.id AS id, n.seq AS seq
            """;

    private static final String IDS_OF = """
            UNWIND $seqs AS seq
            MATCH (n:CctNode {seq: seq})
            RETURN seq, n.id AS id
            """;

    private static final String CHUNKS = """
            UNWIND $starts AS start
            MATCH (n:CctNode) WHERE n.seq >= start AND n.seq < start + $chunk
            RETURN n.seq AS seq, n.id AS id
            """;

    private final Driver driver;
    private final String database;
    /** Numbers to ids, replaced whole by {@link #learn}. */
    private volatile Learnt learnt = new Learnt(0, new long[0], new BitSet());
    /** Ids to numbers and back, learnt in writers' transactions ({@link #in}); replaced by one of another epoch. */
    private volatile Pairs pairs = new Pairs(0);

    /** Ids and numbers of one epoch, learnt in writers' transactions. */
    private record Pairs(int epoch, Map<Long, Integer> numbersOfIds, Map<Integer, Long> idsOfNumbers) {
        Pairs(int epoch) {
            this(epoch, new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
        }

        void add(long id, int seq) {
            numbersOfIds.put(id, seq);
            idsOfNumbers.put(seq, id);
        }
    }

    public NodeNumbers(Driver driver, String database) {
        this.driver = driver;
        this.database = database;
    }

    /** What this JVM learnt of one epoch's numbers: {@code ids[seq]} where {@code known} has {@code seq}. */
    private record Learnt(int epoch, long[] ids, BitSet known) {
        long[] idsOf(int epoch, int[] numbers) {
            if (epoch != this.epoch) {
                throw new UnknownNodeNumbersException(epoch, numbers);
            }
            long[] out = new long[numbers.length];
            int missing = 0;
            for (int i = 0; i < numbers.length; i++) {
                int seq = numbers[i];
                if (seq < 0 || !known.get(seq)) {
                    missing++;
                } else {
                    out[i] = ids[seq];
                }
            }
            if (missing > 0) {
                int[] unknown = new int[missing];
                for (int i = 0, u = 0; i < numbers.length; i++) {
                    if (numbers[i] < 0 || !known.get(numbers[i])) {
                        unknown[u++] = numbers[i];
                    }
                }
                throw new UnknownNodeNumbersException(epoch, unknown);
            }
            return out;
        }
    }

    /**
     * The numbers learnt so far, for decoding windows read outside this class's transactions: a
     * window whose numbers are not all learnt (or of another epoch) throws {@link
     * UnknownNodeNumbersException}; {@link #learn} them, then read again. Numbers no id (windows
     * are written by {@link #in}).
     */
    public NodeNumbering cached() {
        return new NodeNumbering() {
            @Override
            public int epoch() {
                return learnt.epoch();
            }

            @Override
            public int numberOf(long id) {
                return -1;
            }

            @Override
            public long[] idsOf(int epoch, int[] numbers) {
                return learnt.idsOf(epoch, numbers);
            }
        };
    }

    /**
     * Learns the numbers {@code e} names (and the rest of their {@value #CHUNK}-number chunks) from
     * the store, in a read transaction of its own.
     *
     * @throws IllegalStateException if the store numbers in another epoch than the window that named
     *         them (written before the store was wiped), or has no node of some of them (damaged)
     */
    public void learn(UnknownNodeNumbersException e) {
        TreeSet<Integer> starts = new TreeSet<>();
        for (int seq : e.numbers()) {
            if (seq < 0) {
                throw damaged(e, "a negative number");
            }
            starts.add(seq - seq % CHUNK);
        }
        int[] storeEpoch = new int[1];
        List<Record> rows;
        try (Session session = Sessions.open(driver, database)) {
            rows = session.executeRead(tx -> {
                storeEpoch[0] = epochIn(tx);
                return tx.run(CHUNKS, Map.of("starts", List.copyOf(starts), "chunk", CHUNK)).list();
            });
        }
        if (storeEpoch[0] != e.epoch()) {
            throw damaged(e, "numbered in epoch " + e.epoch() + ", the store numbers in " + storeEpoch[0]);
        }
        synchronized (this) {
            Learnt before = learnt;
            boolean same = before.epoch() == e.epoch();
            int size = same ? before.ids().length : 0;
            for (Record r : rows) {
                if (!r.get("seq").isNull()) {
                    size = Math.max(size, r.get("seq").asInt() + 1);
                }
            }
            long[] ids = same ? Arrays.copyOf(before.ids(), size) : new long[size];
            BitSet known = same ? (BitSet) before.known().clone() : new BitSet();
            for (Record r : rows) {
                if (!r.get("seq").isNull()) {
                    int seq = r.get("seq").asInt();
                    ids[seq] = r.get("id").asLong();
                    known.set(seq);
                }
            }
            for (int seq : e.numbers()) {
                if (!known.get(seq)) {
                    throw damaged(e, "no node numbered " + seq);
                }
            }
            learnt = new Learnt(e.epoch(), ids, known);
        }
    }

    /** The store's numbering epoch, 0 for none (a store whose schema was not ensured since numbers came). */
    private static int epochIn(TransactionContext tx) {
        List<Record> k = tx.run(EPOCH, Map.of("name", NAME)).list();
        return k.isEmpty() ? 0 : k.get(0).get("epoch").asInt(0);
    }

    private static IllegalStateException damaged(UnknownNodeNumbersException e, String why) {
        return new IllegalStateException("a stored window names calling-context nodes by numbers the store does not"
                + " hold (" + why + "): damaged, or written before the store was wiped", e);
    }

    /**
     * A writer's view of the numbering within its transaction {@code tx}: it reads the epoch now,
     * and {@link TransactionNumbering#prepare} reads the numbers of ids not learnt yet, both in
     * {@code tx}, so what it packs is numbered as the store it commits to.
     */
    public TransactionNumbering in(TransactionContext tx) {
        int current = epochIn(tx);
        Pairs known = pairs;
        if (known.epoch() != current || known.numbersOfIds().size() > MAX_PAIRS) {
            synchronized (this) {
                known = pairs;
                if (known.epoch() != current || known.numbersOfIds().size() > MAX_PAIRS) {
                    known = new Pairs(current);
                    pairs = known; // a store wiped meanwhile: its numbers name other nodes
                }
            }
        }
        return new TransactionNumbering(tx, known);
    }

    /** {@link #in}: numbers ids of one transaction; reads windows of its epoch in it too. */
    public final class TransactionNumbering implements NodeNumbering {
        private final TransactionContext tx;
        private final int epoch;
        /** What this JVM learnt of the transaction's epoch; only ever of that epoch. */
        private final Pairs known;

        private TransactionNumbering(TransactionContext tx, Pairs known) {
            this.tx = tx;
            this.epoch = known.epoch();
            this.known = known;
        }

        /** Learns the numbers of {@code ids} not learnt yet, in one query of the transaction. */
        public void prepare(long[] ids) {
            if (epoch == 0) {
                return; // no numbering in the store (a schema not ensured yet): nothing is numbered
            }
            List<Long> missing = new ArrayList<>();
            for (long id : ids) {
                if (!known.numbersOfIds().containsKey(id)) {
                    missing.add(id);
                }
            }
            if (!missing.isEmpty()) {
                tx.run(NUMBERS_OF, Map.of("ids", missing))
                        .forEachRemaining(r -> known.add(r.get("id").asLong(), r.get("seq").asInt()));
            }
        }

        @Override
        public int epoch() {
            return epoch;
        }

        @Override
        public int numberOf(long id) {
            Integer seq = epoch == 0 ? null : known.numbersOfIds().get(id);
            return seq == null ? -1 : seq;
        }

        /** The ids of {@code numbers}: learnt before, or read in the transaction (one query for those not learnt). */
        @Override
        public long[] idsOf(int windowEpoch, int[] numbers) {
            if (windowEpoch != epoch) {
                throw damaged(new UnknownNodeNumbersException(windowEpoch, numbers),
                        "numbered in epoch " + windowEpoch + ", the store numbers in " + epoch);
            }
            long[] ids = new long[numbers.length];
            List<Integer> missing = new ArrayList<>();
            for (int i = 0; i < numbers.length; i++) {
                Long id = known.idsOfNumbers().get(numbers[i]);
                if (id == null) {
                    missing.add(numbers[i]);
                } else {
                    ids[i] = id;
                }
            }
            if (missing.isEmpty()) {
                return ids;
            }
            tx.run(IDS_OF, Map.of("seqs", missing))
                    .forEachRemaining(r -> known.add(r.get("id").asLong(), r.get("seq").asInt()));
            for (int i = 0; i < numbers.length; i++) {
                Long id = known.idsOfNumbers().get(numbers[i]);
                if (id == null) {
                    throw damaged(new UnknownNodeNumbersException(epoch, new int[] {numbers[i]}),
                            "no node numbered " + numbers[i]);
                }
                ids[i] = id;
            }
            return ids;
        }
    }

    /**
     * Numbers the complete nodes among {@code ids} that have none, in {@code tx}, from {@code next},
     * what {@link #lock} returned in the same transaction: it serialises the transactions that
     * number nodes, and is taken first in the transaction, before its other writes lock nodes, so
     * that no two such transactions wait on each other.
     *
     * @return how many nodes were numbered
     */
    public static long numberNew(TransactionContext tx, List<Long> ids, long next) {
        long numbered = tx.run(NUMBER, Map.of("ids", ids, "next", next)).single().get("numbered").asLong();
        advance(tx, numbered);
        return numbered;
    }

    /** Takes the numbering's lock in {@code tx} (see {@link #numberNew}); returns the next number. */
    public static long lock(TransactionContext tx) {
        return tx.run(LOCK, Map.of("name", NAME, "epoch", newEpoch())).single().get("next").asLong();
    }

    /**
     * Numbers up to {@code limit} complete nodes that have none, in a store written before nodes
     * were numbered ({@link GraphSchema#ensure}, one transaction per call).
     *
     * @return how many were numbered (0: none left)
     */
    static long numberUnnumbered(TransactionContext tx, int limit) {
        long next = lock(tx);
        long numbered = tx.run(NUMBER_UNNUMBERED, Map.of("limit", limit, "next", next))
                .single().get("numbered").asLong();
        advance(tx, numbered);
        return numbered;
    }

    private static void advance(TransactionContext tx, long numbered) {
        tx.run(ADVANCE, Map.of("name", NAME, "numbered", numbered)).consume();
    }

    private static int newEpoch() {
        int epoch;
        do {
            epoch = ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE);
        } while (epoch == 0);
        return epoch;
    }
}
