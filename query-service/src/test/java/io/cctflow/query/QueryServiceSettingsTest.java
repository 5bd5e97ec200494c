package io.cctflow.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryServiceSettingsTest {
    @TempDir
    Path dir;

    @Test
    void oneFileAndTheEnvironmentConfigureTheServiceAndItsAlerting() throws Exception {
        Path file = Files.writeString(dir.resolve("query.properties"),
                "neo4j.uri=bolt://neo4j:7687\nalerting.top-k=3\nlimits.max-range=30d\n");
        Map<String, String> env = Map.of("CCTFLOW_AUTH_TOKEN", "secret", "CCTFLOW_ALERTING_WINDOW", "2m",
                "CCTFLOW_LIMITS_MAX_RANGE", "7d");

        QueryServiceSettings s = QueryServiceSettings.fromCommandLine(
                new String[] {"--config", file.toString(), "--port", "9000"}, env::get);

        assertThat(s.service().graph().uri()).isEqualTo("bolt://neo4j:7687");
        assertThat(s.service().bearerToken()).isEqualTo("secret");
        assertThat(s.service().maxRange()).isEqualTo(Duration.ofDays(7));
        assertThat(s.service().port()).isEqualTo(9000);
        assertThat(s.alerting().topK()).isEqualTo(3);
        assertThat(s.alerting().window()).isEqualTo(Duration.ofMinutes(2));
    }

    @Test
    void anUnknownOrBadKeyFailsAtStartNamingIt() {
        assertThatThrownBy(() -> QueryServiceSettings.fromCommandLine(new String[] {"--prot", "1"}, name -> null))
                .hasMessageStartingWith("unknown query-service configuration key(s) [prot]");
        assertThatThrownBy(() -> QueryServiceSettings.fromCommandLine(new String[0],
                Map.of("CCTFLOW_ALERTING_TOP_K", "0")::get)).hasMessageContaining("alerting.top-k must be 1..100");
        assertThatThrownBy(() -> QueryServiceSettings.fromCommandLine(new String[0],
                Map.of("CCTFLOW_RETENTION_FINE", "soon")::get)).hasMessageStartingWith("retention.fine: not a duration");
    }
}
