package io.cctflow.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSourcesTest {

    @Test
    void namesEnvironmentVariablesAfterTheKey() {
        assertThat(ConfigSources.envName("neo4j.uri")).isEqualTo("CCTFLOW_NEO4J_URI");
        assertThat(ConfigSources.envName("limits.max-tree-nodes")).isEqualTo("CCTFLOW_LIMITS_MAX_TREE_NODES");
    }

    @Test
    void argumentsWinOverEnvironmentWhichWinsOverTheFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("q.properties");
        Files.writeString(file, "port=1000\nbind=0.0.0.0\nauth.token=from-file\n");
        Map<String, String> env = Map.of("CCTFLOW_PORT", "2000", "CCTFLOW_AUTH_TOKEN", "from-env",
                "CCTFLOW_SOMETHING_ELSE", "ignored");

        Map<String, String> values = ConfigSources.read(new String[] {"--config", file.toString(), "--port", "3000"},
                env, QueryServiceConfig.KEYS.keySet());

        assertThat(values).containsOnly(Map.entry("port", "3000"), Map.entry("bind", "0.0.0.0"),
                Map.entry("auth.token", "from-env"));
        assertThat(QueryServiceConfig.from(values).port()).isEqualTo(3000);
    }

    @Test
    void badArgumentsFailNamingWhatWasGiven(@TempDir Path dir) {
        List<String> keys = List.of("port");
        assertThatThrownBy(() -> ConfigSources.read(new String[] {"--config", dir.resolve("x").toString()}, Map.of(), keys))
                .hasMessageContaining(dir.resolve("x").toString());
        assertThatThrownBy(() -> ConfigSources.read(new String[] {"--port"}, Map.of(), keys))
                .hasMessageContaining("--port needs a value");
        assertThatThrownBy(() -> QueryServiceConfig.from(ConfigSources.read(new String[] {"--prot", "1"}, Map.of(), keys)))
                .hasMessageContaining("prot");
    }
}
