package io.cctflow.graph;

import io.cctflow.core.Cct;
import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.servers.TestServers;
import java.util.Collection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.neo4j.driver.Driver;

/**
 * Base of the tests against the shared test Neo4j ({@link TestServers}): one driver per test
 * class, with a writer and the readers on the default database, and before each test an empty
 * graph with the schema in place.
 */
public abstract class CleanGraph {
    protected static Driver driver;
    protected static GraphWriter writer;
    protected static CatalogueReader catalogue;
    protected static WindowReader windows;
    protected static TopologyReader topology;

    @BeforeAll
    static void connect() {
        driver = TestServers.get().newDriver();
        writer = new GraphWriter(driver, "");
        catalogue = new CatalogueReader(driver, "");
        windows = new WindowReader(driver, "");
        topology = new TopologyReader(driver, "");
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

    /** Writes the nodes of {@code tree}: readers make stored windows whole with them. */
    protected static void writeTopology(Cct tree) {
        writer.writeNodes(new java.util.ArrayList<>(RandomTrees.topology(tree).values()));
    }

    /** The merged tree of the executions over [fromMillis, toMillis), read as the query service reads it. */
    protected static Cct load(Collection<String> executionKeys, long fromMillis, long toMillis) {
        return topology.rebuild(windows.plan(executionKeys, fromMillis, toMillis).sum());
    }
}
