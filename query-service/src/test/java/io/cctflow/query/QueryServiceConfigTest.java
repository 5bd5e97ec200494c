package io.cctflow.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.query.http.ServerLimits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryServiceConfigTest {
    static final Path README = Path.of("README.md");

    @Test
    void defaultsAreTheDocumentedOnes() {
        QueryServiceConfig c = QueryServiceConfig.defaults();
        assertThat(c.bindAddress()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(QueryService.DEFAULT_PORT);
        assertThat(c.bearerToken()).isEmpty();
        assertThat(c.tasksTopic()).isEqualTo("cctflow.tasks");
        assertThat(c.maxRange()).isEqualTo(Duration.ofDays(366));
        assertThat(c.rollupInterval()).isEqualTo(Duration.ofMinutes(1));
        assertThat(c.retention().fine()).isEqualTo(Duration.ofDays(14));
        assertThat(c.retention().hour()).isEqualTo(Duration.ofDays(365));
        assertThat(c.retention().day()).isEqualTo(Duration.ofDays(1825));
        assertThat(c.server()).isEqualTo(ServerLimits.defaults());
        assertThat(c.server().heavyRequests()).isEqualTo(4);
        assertThat(c.server().requestTimeout()).isEqualTo(Duration.ofSeconds(120));
        assertThat(c.server().transactionTimeout()).isEqualTo(Duration.ofSeconds(60));
        assertThat(QueryServiceConfig.from(c.asMap())).isEqualTo(c);
    }

    @Test
    void badKeysAndValuesFailNamingTheKey() {
        assertThatThrownBy(() -> QueryServiceConfig.from(Map.of("prot", "1")))
                .hasMessageContaining("unknown query-service configuration key(s) [prot]");
        assertThatThrownBy(() -> QueryServiceConfig.from(Map.of("port", "70000"))).hasMessageContaining("port must be");
        assertThatThrownBy(() -> QueryServiceConfig.from(Map.of("limits.max-range", "soon")))
                .hasMessageContaining("limits.max-range: not a duration");
        assertThatThrownBy(() -> QueryServiceConfig.from(Map.of("retention.fine", "0")))
                .hasMessageContaining("retention.fine must be > 0");
        assertThat(QueryServiceConfig.from(Map.of("rollup.interval", "0")).rollupInterval()).isZero();
        assertThatThrownBy(() -> QueryServiceConfig.from(Map.of("http.threads", "2")))
                .hasMessageContaining("http.threads must be");
        assertThatThrownBy(() -> QueryServiceConfig.from(Map.of("neo4j.transaction-timeout", "0")))
                .hasMessageContaining("neo4j.transaction-timeout must be > 0");
        assertThatThrownBy(() -> QueryServiceConfig.from(Map.of("auth.token", "same", "auth.write-token", "same")))
                .hasMessageContaining("auth.write-token must differ from auth.token");
    }

    @Test
    void listeningBeyondLoopbackWithoutATokenIsWarnedAbout() {
        QueryServiceConfig open = QueryServiceConfig.from(Map.of("bind", "0.0.0.0"));
        assertThat(QueryService.exposureWarning(open)).hasValueSatisfying(w -> assertThat(w)
                .contains("0.0.0.0").contains("auth.token is empty").contains("change task definitions"));
        assertThat(QueryService.exposureWarning(open.with(Map.of("auth.token", "t")))).isEmpty();
        assertThat(QueryService.exposureWarning(QueryServiceConfig.defaults())).isEmpty();
        assertThat(QueryService.exposureWarning(QueryServiceConfig.from(Map.of("bind", "localhost")))).isEmpty();
    }

    /** Docs that match the code: the README's key table is exactly the one the key definitions render. */
    @Test
    void theReadmeListsEveryKeyWithItsDefault() throws Exception {
        String readme = Files.readString(README);
        String table = QueryServiceConfig.KEYS.markdownTable();
        for (var key : QueryServiceConfig.KEYS.keys()) {
            assertThat(table).contains("| `" + key.name() + "` | "
                    + (key.defaultText().isEmpty() ? "(empty)" : "`" + key.defaultText() + "`") + " |");
        }
        assertThat(readme).as("the key table of %s; paste QueryServiceConfig.KEYS.markdownTable()", README)
                .contains(table);
    }
}
