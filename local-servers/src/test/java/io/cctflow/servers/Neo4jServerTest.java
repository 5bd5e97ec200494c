package io.cctflow.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Session;

@Timeout(120)
class Neo4jServerTest {

    @TempDir
    Path homeDir;

    @Test
    void restartOnTheSameHomeDirectoryKeepsNodes() {
        try (Neo4jServer first = Neo4jServer.builder(homeDir).pageCacheBytes(32L * 1024 * 1024).start()) {
            System.err.println("first Neo4j start: " + first.startupTime().toMillis() + " ms");
            try (Driver driver = GraphDatabase.driver(first.boltUri(), AuthTokens.none());
                 Session session = driver.session()) {
                session.executeWriteWithoutResult(tx -> tx.run("CREATE (:Kept {name: $name})", Map.of("name", "before")));
            }
            long stopStart = System.nanoTime();
            first.close();
            System.err.println("Neo4j stop: " + (System.nanoTime() - stopStart) / 1_000_000 + " ms");
        }
        try (Neo4jServer second = Neo4jServer.builder(homeDir).pageCacheBytes(32L * 1024 * 1024).start()) {
            System.err.println("second Neo4j start (restart): " + second.startupTime().toMillis() + " ms");
            // authentication is off, so basic credentials (what some clients insist on) work too
            try (Driver driver = GraphDatabase.driver(second.boltUri(), AuthTokens.basic("neo4j", "anything"));
                 Session session = driver.session()) {
                String name = session.executeRead(tx -> tx.run("MATCH (k:Kept) RETURN k.name AS name").single()
                        .get("name").asString());
                assertThat(name).isEqualTo("before");
            }
        }
    }
}
