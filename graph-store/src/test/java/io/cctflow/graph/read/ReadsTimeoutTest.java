package io.cctflow.graph.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.servers.TestServers;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;
import org.neo4j.driver.exceptions.Neo4jException;

/**
 * A read transaction that runs past the readers' transaction timeout is ended by Neo4j, not left
 * to run: the query service's per-request bound on the database.
 */
class ReadsTimeoutTest {
    /** Counts to ten billion: minutes of work, however fast the machine. */
    private static final String ENDLESS = "UNWIND range(1, 10000000000) AS x RETURN count(x) AS n";
    private static Driver driver;

    @BeforeAll
    static void connect() {
        driver = TestServers.get().newDriver();
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @Test
    void aReadLongerThanTheTimeoutIsTerminatedByNeo4j() {
        Reads reads = new Reads(driver, "", Duration.ofMillis(300));
        assertThatThrownBy(() -> reads.read(ENDLESS, Map.of(), r -> r.get("n").asLong()))
                .isInstanceOf(Neo4jException.class)
                .satisfies(e -> assertThat(((Neo4jException) e).code()).contains("TransactionTimedOut"));
    }

    @Test
    void aReadWithinTheTimeoutAnswers() {
        Reads reads = new Reads(driver, "", Duration.ofSeconds(30));
        assertThat(reads.read("RETURN 41 + 1 AS n", Map.of(), r -> r.get("n").asLong())).containsExactly(42L);
    }
}
