package io.cctflow.graph;

import io.cctflow.servers.TestServers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.neo4j.driver.Driver;

/**
 * Base of the tests against the shared test Neo4j ({@link TestServers}): one driver per test
 * class, with a writer and a reader on the default database, and before each test an empty graph
 * with the schema in place.
 */
abstract class CleanGraph {
    static Driver driver;
    static GraphWriter writer;
    static GraphReader reader;

    @BeforeAll
    static void connect() {
        driver = TestServers.get().newDriver();
        writer = new GraphWriter(driver, "");
        reader = new GraphReader(driver, "");
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @BeforeEach
    void clean() {
        TestServers.get().cleanNeo4j();
        GraphSchema.ensure(driver, "");
    }
}
