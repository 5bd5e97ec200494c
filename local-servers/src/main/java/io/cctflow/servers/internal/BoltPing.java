package io.cctflow.servers.internal;

import java.time.Duration;

import io.cctflow.servers.ServerStartException;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Session;

/** Asks a Neo4j without authentication {@code RETURN 1} over Bolt. */
public final class BoltPing {

    private BoltPing() {
    }

    /** One attempt; throws the driver's exception if the database does not answer. */
    public static void ping(String uri) {
        try (Driver driver = GraphDatabase.driver(uri, AuthTokens.none());
             Session session = driver.session()) {
            session.run("RETURN 1").consume();
        }
    }

    /**
     * Returns when the database answers, trying every half second.
     *
     * @throws ServerStartException if it does not answer within {@code timeout}
     */
    public static void await(String uri, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                ping(uri);
                return;
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw new ServerStartException("Neo4j did not answer on " + uri + " within " + timeout + ": " + e, e);
                }
            }
            try {
                Thread.sleep(500); // polling a database that is starting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServerStartException("Interrupted while waiting for Neo4j on " + uri, e);
            }
        }
    }
}
