package io.cctflow.servers.internal;

/** Running Kafka and Neo4j behind {@code TestServers}. Implementations are thread-safe. */
public interface Backend extends AutoCloseable {

    String kafkaBootstrapServers();

    /** A Bolt URI; the server has authentication disabled. */
    String neo4jUri();

    /**
     * Makes Neo4j unreachable, keeping its data and address (a fault-injection for tests that
     * show nothing is lost while the database is away).
     */
    void suspendNeo4j();

    /**
     * Kills Neo4j's process with SIGKILL, as a crash would: no clean shutdown; the store stays as
     * the kill left it.
     */
    void killNeo4j();

    /**
     * Brings Neo4j back after {@link #suspendNeo4j()} or {@link #killNeo4j()}, at the same address
     * with the same data (after a kill: recovered from its transaction log).
     */
    void resumeNeo4j();

    /** One line for the start-up message: addresses and per-server start-up times. */
    String describe();

    /** Stops both servers; idempotent; never throws. */
    @Override
    void close();
}
