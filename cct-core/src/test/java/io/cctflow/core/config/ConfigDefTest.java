package io.cctflow.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigDefTest {
    private static final ConfigKey<Integer> PORT = ConfigKey.of("port", ValueParsers.integer(0, 65535), "8080",
            "port of the API");
    private static final ConfigKey<Duration> WINDOW = ConfigKey.of("window", ValueParsers.positiveDuration(), "1m",
            "event-time window");
    private static final ConfigKey<String> TOKEN = ConfigKey.of("auth.token", ValueParsers.text(), "",
            "bearer token; empty: none");
    private static final ConfigDef DEF = ConfigDef.builder("test configuration").define(PORT)
            .define(List.of(WINDOW, TOKEN)).build();

    @Test
    void missingKeysTakeTheirDefaultsAndGivenOnesAreParsed() {
        Config defaults = DEF.parse(Map.of());
        assertThat(defaults.get(PORT)).isEqualTo(8080);
        assertThat(defaults.get(WINDOW)).isEqualTo(Duration.ofMinutes(1));
        assertThat(defaults.get(TOKEN)).isEmpty();

        Config c = DEF.parse(Map.of("port", " 9090 ", "window", "PT30S", "auth.token", "s3cret"));
        assertThat(c.get(PORT)).isEqualTo(9090);
        assertThat(c.get(WINDOW)).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.get(TOKEN)).isEqualTo("s3cret");
    }

    @Test
    void aBadValueFailsNamingTheKeyAndTheValue() {
        assertThatThrownBy(() -> DEF.parse(Map.of("port", "70000")))
                .isInstanceOf(ConfigException.class)
                .hasMessage("port must be a whole number in 0..65535, got '70000'")
                .extracting(e -> ((ConfigException) e).key()).isEqualTo("port");
        assertThatThrownBy(() -> DEF.parse(Map.of("window", "0")))
                .hasMessage("window must be > 0, got '0'");
        assertThatThrownBy(() -> DEF.parse(Map.of("window", "soon")))
                .hasMessageStartingWith("window: not a duration: 'soon'");
    }

    @Test
    void theProblemIsAvailableWithoutTheKeyForCallersThatPhraseTheirOwnMessage() {
        assertThatThrownBy(() -> PORT.parse("x"))
                .isInstanceOfSatisfying(ConfigException.class, e -> assertThat(e.problem())
                        .isEqualTo("must be a whole number in 0..65535, got 'x'"));
    }

    @Test
    void unknownKeysAreRejectedAllAtOnceWithTheKnownOnes() {
        assertThatThrownBy(() -> DEF.parse(Map.of("prot", "1", "windw", "1m", "port", "1")))
                .hasMessage("unknown test configuration key(s) [prot, windw]; known keys: [port, window, auth.token]");
    }

    @Test
    void aPrefixedDefinitionOwnsOnlyItsPrefix() {
        ConfigKey<Boolean> enabled = ConfigKey.of("alerting.enabled", ValueParsers.bool(), "true", "on");
        ConfigDef alerting = ConfigDef.builder("alerting", "alerting.").define(enabled).build();

        assertThat(alerting.parse(Map.of("port", "1", "alerting.enabled", "FALSE")).get(enabled)).isFalse();
        assertThatThrownBy(() -> alerting.parse(Map.of("alerting.enabeld", "true")))
                .hasMessageStartingWith("unknown alerting key(s) [alerting.enabeld]");
        assertThatThrownBy(() -> ConfigDef.builder("alerting", "alerting.").define(PORT))
                .hasMessageContaining("outside prefix");
    }

    @Test
    void aKeyDefinedTwiceOrADefaultItsParserRejectsFailsAtDefinition() {
        assertThatThrownBy(() -> ConfigDef.builder("x").define(PORT, PORT)).hasMessage("key port defined twice");
        assertThatThrownBy(() -> ConfigKey.of("n", ValueParsers.integer(1, 5), "9", "doc"))
                .hasMessage("n must be a whole number in 1..5, got '9'");
    }

    @Test
    void parsersStateTheirRules() {
        assertThat(ValueParsers.integer(0, Integer.MAX_VALUE).check(n -> n % 2 == 0, "must be even").parse("4"))
                .isEqualTo(4);
        assertThatThrownBy(() -> ValueParsers.integer(0, Integer.MAX_VALUE).check(n -> n % 2 == 0, "must be even")
                .parse("3")).hasMessage("must be even, got '3'");
        assertThatThrownBy(() -> ValueParsers.integer(0, Integer.MAX_VALUE).parse("-1"))
                .hasMessage("must be a whole number >= 0, got '-1'");
        assertThatThrownBy(() -> ValueParsers.integer(1, Integer.MAX_VALUE).parse("0"))
                .hasMessage("must be a whole number > 0, got '0'");
        assertThatThrownBy(() -> ValueParsers.whole().parse("ten")).hasMessage("must be a whole number, got 'ten'");
        assertThatThrownBy(() -> ValueParsers.bool().parse("yes")).hasMessage("must be true or false, got 'yes'");
        assertThat(ValueParsers.oneOf("rocksdb", "hashmap").parse("HashMap")).isEqualTo("hashmap");
        assertThatThrownBy(() -> ValueParsers.oneOf("rocksdb", "hashmap").parse("heap"))
                .hasMessage("must be one of [rocksdb, hashmap], got 'heap'");
        assertThatThrownBy(() -> ValueParsers.nonEmpty().parse(" ")).hasMessage("must not be empty");
        assertThatThrownBy(() -> ValueParsers.nonNegativeDuration().parse("PT-1S"))
                .hasMessage("must not be negative, got 'PT-1S'");
    }

    @Test
    void environmentVariablesAreThePrefixedUpperCaseNameWithUnderscores() {
        ConfigKey<String> key = ConfigKey.of("neo4j.retry.max-time", ValueParsers.text(), "", "d");
        assertThat(key.environmentVariable()).isEqualTo("CCTFLOW_NEO4J_RETRY_MAX_TIME");
        assertThat(key.systemProperty()).isEqualTo("cctflow.neo4j.retry.max-time");
    }

    @Test
    void rendersTheKeysAsAMarkdownTable() {
        assertThat(DEF.markdownTable()).isEqualTo("""
                | key | default | meaning |
                |---|---|---|
                | `port` | `8080` | port of the API |
                | `window` | `1m` | event-time window |
                | `auth.token` | (empty) | bearer token; empty: none |
                """);
        assertThat(KeyTable.markdown(List.of(PORT), List.of(KeyTable.Column.KEY, KeyTable.Column.ENVIRONMENT)))
                .isEqualTo("| key | environment |\n|---|---|\n| `port` | `CCTFLOW_PORT` |\n");
    }
}
