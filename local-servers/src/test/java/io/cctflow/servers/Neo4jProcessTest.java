package io.cctflow.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Session;

@Timeout(600)
class Neo4jProcessTest {

    @TempDir
    Path homeDir;

    /** What was committed before a SIGKILL is there after the restart, at the same address. */
    @Test
    void aCommittedWriteSurvivesKillMinus9AndARestartOnTheSameStore() {
        try (Neo4jProcess neo4j = Neo4jProcess.start(homeDir, "512m")) {
            String uri = neo4j.boltUri();
            long pid = neo4j.pid();
            try (Driver driver = GraphDatabase.driver(uri, AuthTokens.none()); Session session = driver.session()) {
                session.executeWriteWithoutResult(tx -> tx.run("CREATE (:Probe {n: $n})", Map.of("n", 42)));
            }

            neo4j.kill();
            assertThat(neo4j.isRunning()).isFalse();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("pid %s gone", pid).isFalse();
            assertThatThrownBy(() -> {
                try (Driver driver = GraphDatabase.driver(uri, AuthTokens.none()); Session session = driver.session()) {
                    session.run("RETURN 1").consume();
                }
            }).as("nothing answers while it is dead").isInstanceOf(RuntimeException.class);

            neo4j.restart();
            assertThat(neo4j.boltUri()).isEqualTo(uri);
            assertThat(neo4j.pid()).isNotEqualTo(pid);
            try (Driver driver = GraphDatabase.driver(uri, AuthTokens.none()); Session session = driver.session()) {
                long n = session.executeRead(tx -> tx.run("MATCH (p:Probe) RETURN p.n AS n").single().get("n").asLong());
                assertThat(n).isEqualTo(42L);
            }
            assertThatThrownBy(neo4j::restart).isInstanceOf(IllegalStateException.class).hasMessageContaining("still running");
        }
    }
}
