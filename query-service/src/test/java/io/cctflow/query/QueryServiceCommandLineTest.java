package io.cctflow.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link QueryServiceMain}'s command line: {@code --config FILE}, {@code CCTFLOW_*}, {@code --key value}. */
class QueryServiceCommandLineTest {

    @Test
    void namesEnvironmentVariablesAfterTheKey() {
        assertThat(QueryServiceSettings.KEYS.environmentVariables())
                .containsEntry("neo4j.uri", "CCTFLOW_NEO4J_URI")
                .containsEntry("limits.max-tree-nodes", "CCTFLOW_LIMITS_MAX_TREE_NODES")
                .containsEntry("alerting.top-k", "CCTFLOW_ALERTING_TOP_K");
    }

    @Test
    void argumentsWinOverEnvironmentWhichWinsOverTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("q.properties");
        Files.writeString(file, "port=1000\nbind=0.0.0.0\nauth.token=from-file\nalerting.top-k=7\n");
        Map<String, String> env = Map.of("CCTFLOW_PORT", "2000", "CCTFLOW_AUTH_TOKEN", "from-env",
                "CCTFLOW_SOMETHING_ELSE", "ignored");

        QueryServiceSettings settings = QueryServiceSettings.fromCommandLine(
                new String[] {"--config", file.toString(), "--port", "3000"}, env::get);

        assertThat(settings.service().port()).isEqualTo(3000);
        assertThat(settings.service().bindAddress()).isEqualTo("0.0.0.0");
        assertThat(settings.service().bearerToken()).isEqualTo("from-env");
        assertThat(settings.alerting().topK()).isEqualTo(7);
    }

    @Test
    void badArgumentsFailNamingWhatWasGiven(@TempDir Path dir) {
        assertThatThrownBy(() -> QueryServiceSettings.fromCommandLine(
                new String[] {"--config", dir.resolve("x").toString()}, k -> null))
                .hasMessageContaining(dir.resolve("x").toString());
        assertThatThrownBy(() -> QueryServiceSettings.fromCommandLine(new String[] {"--port"}, k -> null))
                .hasMessageContaining("--port");
        assertThatThrownBy(() -> QueryServiceSettings.fromCommandLine(new String[] {"--prot", "1"}, k -> null))
                .hasMessageContaining("prot");
    }
}
