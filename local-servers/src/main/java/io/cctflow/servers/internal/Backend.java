package io.cctflow.servers.internal;

/** Running Kafka and Neo4j behind {@code TestServers}. Implementations are thread-safe. */
public interface Backend extends AutoCloseable {

    String kafkaBootstrapServers();

    /** A Bolt URI; the server has authentication disabled. */
    String neo4jUri();

    /** One line for the start-up message: addresses and per-server start-up times. */
    String describe();

    /** Stops both servers; idempotent; never throws. */
    @Override
    void close();
}
