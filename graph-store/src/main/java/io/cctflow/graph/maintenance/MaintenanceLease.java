package io.cctflow.graph.maintenance;

import java.time.Duration;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;

/**
 * A lease in Neo4j that lets one of several replicas at a time run a maintenance pass (roll-up and
 * retention): a {@code (:MaintenanceLease {name})} node with the {@code holder} and the
 * {@code expiresAt} time (epoch ms). {@link #tryAcquire} takes the lease when it is free, expired
 * or already ours, and then holds it until {@code now + ttl}; every replica calls it on its own
 * schedule and runs the pass only when it returns true.
 *
 * <p>Atomic because the statement first takes the node's write lock ({@code SET l.lockedAt}) and
 * only then reads holder and expiry: a second replica's statement waits for the first one's
 * commit and then sees its holder (Neo4j's documented guard against lost updates). {@code MERGE}
 * on the name is safe under concurrency because of the {@code maintenance_lease_name} uniqueness
 * constraint of the schema.
 *
 * <p>The ttl must be longer than the longest pass, or a second replica may start while the first
 * still runs; a replica that stops calls {@link #release} so another takes over at once. The
 * clock is the caller's (replicas' clocks are assumed within a small fraction of the ttl).
 * Thread-safe: every call is one transaction.
 */
public final class MaintenanceLease {
    private static final String ACQUIRE = """
            MERGE (l:MaintenanceLease {name: $name})
            SET l.lockedAt = $now
            WITH l
            WHERE l.holder IS NULL OR l.holder = $holder OR l.expiresAt <= $now
            SET l.holder = $holder, l.expiresAt = $now + $ttl
            RETURN l.holder AS holder""";
    private static final String RELEASE = """
            MATCH (l:MaintenanceLease {name: $name})
            WHERE l.holder = $holder
            SET l.holder = null, l.expiresAt = 0""";

    private final Driver driver;
    private final String database;
    private final String name;
    private final String holder;
    private final long ttlMillis;

    /**
     * @param name the pass the lease guards, e.g. {@code "rollup"}
     * @param holder this replica, unique among the replicas (e.g. host, pid and a random part)
     */
    public MaintenanceLease(Driver driver, String database, String name, String holder, Duration ttl) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("lease ttl must be > 0, got " + ttl);
        }
        this.driver = driver;
        this.database = database;
        this.name = name;
        this.holder = holder;
        this.ttlMillis = ttl.toMillis();
    }

    /** Takes or renews the lease; true if this replica holds it until {@code nowMillis + ttl}. */
    public boolean tryAcquire(long nowMillis) {
        try (Session session = open()) {
            return session.executeWrite(tx -> tx.run(ACQUIRE,
                    Map.of("name", name, "holder", holder, "now", nowMillis, "ttl", ttlMillis)).hasNext());
        }
    }

    /** Gives the lease up if this replica holds it, so another replica can take it at once. */
    public void release() {
        try (Session session = open()) {
            session.executeWriteWithoutResult(tx -> tx.run(RELEASE, Map.of("name", name, "holder", holder)).consume());
        }
    }

    /** A name for this replica: host, pid and a random part (pids repeat across containers). */
    public static String newHolder() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "unknown-host";
        }
        return host + "/" + ProcessHandle.current().pid() + "/" + java.util.UUID.randomUUID().toString().substring(0, 8);
    }

    /** This replica's name in the lease. */
    public String holder() {
        return holder;
    }

    private Session open() {
        return database.isEmpty() ? driver.session() : driver.session(SessionConfig.forDatabase(database));
    }
}
