package io.cctflow.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryServiceConfigTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        QueryServiceConfig c = QueryServiceConfig.defaults();
        assertThat(c.bindAddress()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(QueryService.DEFAULT_PORT);
        assertThat(c.bearerToken()).isEmpty();
        assertThat(c.tasksTopic()).isEqualTo("cctflow.tasks");
        assertThat(c.maxRange()).isEqualTo(Duration.ofDays(366));
        assertThat(c.rollupInterval()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.retention().fine()).isEqualTo(Duration.ofDays(7));
        assertThat(c.retention().hour()).isEqualTo(Duration.ofDays(90));
        assertThat(c.retention().day()).isEqualTo(Duration.ofDays(730));
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

    @Test
    void theReadmeListsEveryKeyWithItsDefault() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        QueryServiceConfig.KEYS.forEach((key, v) -> assertThat(readme)
                .contains("| `" + key + "` | " + (v[0].isEmpty() ? "(empty)" : "`" + v[0] + "`") + " |"));
    }
}
