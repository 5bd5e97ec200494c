package io.cctflow.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.servers.internal.Ports;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

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

    /** Another process takes the free port before Neo4j binds it: the next free port is used. */
    @Test
    void aPortTakenBeforeBoltBindsItIsReplacedByAnother() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName(Ports.LOOPBACK), 0));
            List<Integer> offered = new ArrayList<>();
            IntSupplier ports = () -> {
                int port = offered.isEmpty() ? taken.getLocalPort() : Ports.free();
                offered.add(port);
                return port;
            };
            try (Neo4jServer server = Neo4jServer.builder(homeDir).pageCacheBytes(32L * 1024 * 1024).freePorts(ports)
                    .start()) {
                assertThat(offered).hasSize(2).startsWith(taken.getLocalPort());
                assertThat(server.boltUri()).endsWith(":" + offered.get(1));
                try (Driver driver = GraphDatabase.driver(server.boltUri(), AuthTokens.none());
                     Session session = driver.session()) {
                    assertThat(session.run("RETURN 1 AS one").single().get("one").asInt()).isEqualTo(1);
                }
            }
        }
    }

    @Test
    void aSetPortThatIsTakenFailsWithoutRetrying() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName(Ports.LOOPBACK), 0));
            assertThatThrownBy(() -> Neo4jServer.builder(homeDir).pageCacheBytes(32L * 1024 * 1024)
                    .boltPort(taken.getLocalPort()).start())
                    .isInstanceOf(ServerStartException.class).hasMessageContaining(":" + taken.getLocalPort());
        }
    }

    /** The replan interval the server sets is the one in effect, as Neo4j reports it over Bolt. */
    @Test
    void plansAreKeptForTheMinimumReplanInterval() {
        try (Neo4jServer server = Neo4jServer.builder(homeDir).pageCacheBytes(32L * 1024 * 1024).start();
             Driver driver = GraphDatabase.driver(server.boltUri(), AuthTokens.none());
             Session session = driver.session()) {
            String value = session.run("SHOW SETTINGS YIELD name, value WHERE name = $name RETURN value",
                    Map.of("name", "dbms.cypher.min_replan_interval")).single().get("value").asString();
            assertThat(value).isEqualTo(Neo4jServer.MIN_REPLAN_INTERVAL.toMinutes() + "m"); // Neo4j prints a whole number of minutes as "10m"
        }
    }

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
