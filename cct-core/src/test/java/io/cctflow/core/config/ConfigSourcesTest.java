package io.cctflow.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSourcesTest {
    private static final ConfigKey<String> URI = ConfigKey.of("neo4j.uri", ValueParsers.nonEmpty(),
            "bolt://localhost:7687", "Bolt URI");
    private static final ConfigKey<Integer> PORT = ConfigKey.of("port", ValueParsers.integer(0, 65535), "8080", "port");
    private static final ConfigKey<String> TOPIC = ConfigKey.of("topic.dead-letters", ValueParsers.nonEmpty(), "dlq", "t");
    private static final ConfigDef DEF = ConfigDef.builder("test configuration").define(URI, PORT, TOPIC).build();

    @TempDir
    Path dir;

    @Test
    void commandLineWinsOverEnvironmentWhichWinsOverTheFile() throws IOException {
        Path file = Files.writeString(dir.resolve("q.properties"),
                "# a comment\nneo4j.uri = bolt://file:1\nport=1\ntopic.dead-letters=from-file\n");
        Map<String, String> env = Map.of("CCTFLOW_PORT", "2", "CCTFLOW_TOPIC_DEAD_LETTERS", "from-env",
                "CCTFLOW_UNRELATED", "x");

        Config c = DEF.parse(ConfigSources.fromCommandLine(DEF,
                new String[] {"--config", file.toString(), "--port=3"}, env::get));

        assertThat(c.get(URI)).isEqualTo("bolt://file:1");
        assertThat(c.get(TOPIC)).isEqualTo("from-env");
        assertThat(c.get(PORT)).isEqualTo(3);
    }

    @Test
    void nothingGivenMeansEveryDefault() {
        Config c = DEF.parse(ConfigSources.fromCommandLine(DEF, new String[0], name -> null));
        assertThat(c.get(PORT)).isEqualTo(8080);
    }

    @Test
    void badValuesFromTheEnvironmentNameTheKey() {
        Map<String, String> values = ConfigSources.merge(DEF, Map.of(), Map.of("CCTFLOW_PORT", "http")::get, Map.of());
        assertThatThrownBy(() -> DEF.parse(values)).hasMessage("port must be a whole number in 0..65535, got 'http'");
    }

    @Test
    void unknownKeysInTheFileAreRejectedByTheDefinition() throws IOException {
        Path file = Files.writeString(dir.resolve("q.properties"), "prot=1\n");
        Map<String, String> values = ConfigSources.fromCommandLine(DEF, new String[] {"--config", file.toString()},
                name -> null);
        assertThatThrownBy(() -> DEF.parse(values)).hasMessageStartingWith("unknown test configuration key(s) [prot]");
    }

    @Test
    void aMissingFileOrMalformedArgumentsFailNamingThem() {
        Path missing = dir.resolve("missing.properties");
        assertThatThrownBy(() -> ConfigSources.fromCommandLine(DEF, new String[] {"--config", missing.toString()},
                name -> null)).hasMessageContaining("cannot read config file " + missing);
        assertThatThrownBy(() -> ConfigSources.parseArguments("port", "1"))
                .hasMessageContaining("expected --key value, got 'port'");
        assertThatThrownBy(() -> ConfigSources.parseArguments("--port"))
                .hasMessage("port must have a value, got none after '--port'");
    }
}
