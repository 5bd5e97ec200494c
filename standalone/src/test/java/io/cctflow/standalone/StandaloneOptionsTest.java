package io.cctflow.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cctflow.query.QueryServiceConfig;
import io.cctflow.query.alerting.AlertingConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StandaloneOptionsTest {
    private static final Map<String, String> OWN = Map.of(QueryServiceConfig.PORT, "9999",
            QueryServiceConfig.NEO4J_URI, "bolt://127.0.0.1:7001");

    @Test
    void passesQueryServiceAndAlertingKeysThroughToTheQueryService() {
        StandaloneOptions o = StandaloneOptions.parse("demo", "--set", "alerting.top-k=5", "--set",
                "alerting.watch=demo-shop:io.cctflow.standalone.demo.Shop.priceCart", "--set", "limits.max-range=30d",
                "--set", "auth.token=secret");

        AlertingConfig alerting = o.alertingConfig();
        assertThat(alerting.topK()).isEqualTo(5);
        assertThat(alerting.watch()).hasSize(1);
        assertThat(alerting.watch().get(0).service()).isEqualTo("demo-shop");
        QueryServiceConfig query = o.queryConfig(OWN);
        assertThat(query.maxRange()).isEqualTo(Duration.ofDays(30));
        assertThat(query.bearerToken()).isEqualTo("secret");
        assertThat(query.port()).isEqualTo(9999);
        assertThat(query.graph().uri()).isEqualTo("bolt://127.0.0.1:7001");
    }

    @Test
    void withoutSetEverythingKeepsItsDefault() {
        StandaloneOptions o = StandaloneOptions.parse();

        assertThat(o.alertingConfig()).isEqualTo(AlertingConfig.defaults());
        assertThat(o.queryConfig(OWN)).isEqualTo(QueryServiceConfig.defaults().with(OWN));
    }

    @Test
    void rejectsBadSettingsAtParseTimeNamingTheKey() {
        assertThatThrownBy(() -> StandaloneOptions.parse("--set", "alerting.top-k=0"))
                .hasMessageContaining("alerting.top-k");
        assertThatThrownBy(() -> StandaloneOptions.parse("--set", "alerting.nope=1"))
                .hasMessageContaining("alerting.nope");
        assertThatThrownBy(() -> StandaloneOptions.parse("--set", "limits.nope=1"))
                .hasMessageContaining("limits.nope");
        assertThatThrownBy(() -> StandaloneOptions.parse("--set", "limits.max-windows=lots"))
                .hasMessageContaining("limits.max-windows");
        assertThatThrownBy(() -> StandaloneOptions.parse("--set", "port=1"))
                .hasMessageContaining("use --port");
        assertThatThrownBy(() -> StandaloneOptions.parse("--set", "neo4j.uri=bolt://x:1"))
                .hasMessageContaining("standalone sets this key itself");
        assertThatThrownBy(() -> StandaloneOptions.parse("--set", "alerting.top-k"))
                .hasMessageContaining("KEY=VALUE");
        assertThatThrownBy(() -> StandaloneOptions.parse("--set", "alerting.top-k=1", "--set", "alerting.top-k=2"))
                .hasMessageContaining("twice");
    }

    @Test
    void optionsKeepTheirDefaultsAndTakeBothForms() {
        StandaloneOptions defaults = StandaloneOptions.parse();
        assertThat(defaults.demo()).isFalse();
        assertThat(defaults.port()).isEqualTo(8080);
        assertThat(defaults.bindAddress()).isEqualTo("127.0.0.1");
        assertThat(defaults.dataDir()).isEqualTo(java.nio.file.Path.of("cctflow-data").toAbsolutePath());
        assertThat(defaults.agentJar()).isNull();

        StandaloneOptions o = StandaloneOptions.parse("--port=0", "demo", "--bind", "0.0.0.0", "--data-dir", "/tmp/d");
        assertThat(o.demo()).isTrue();
        assertThat(o.port()).isZero();
        assertThat(o.bindAddress()).isEqualTo("0.0.0.0");
        assertThat(o.dataDir()).isEqualTo(java.nio.file.Path.of("/tmp/d"));
    }

    @Test
    void badArgumentsFailWithOneLineNamingThem() {
        assertThatThrownBy(() -> StandaloneOptions.parse("--port", "70000"))
                .hasMessage("--port must be a number from 0 to 65535, got '70000' (see --help)");
        assertThatThrownBy(() -> StandaloneOptions.parse("demoo"))
                .hasMessage("unknown argument 'demoo' (see --help)");
        assertThatThrownBy(() -> StandaloneOptions.parse("--prot", "1"))
                .hasMessageStartingWith("unknown argument '--prot'");
        assertThatThrownBy(() -> StandaloneOptions.parse("--data-dir"))
                .hasMessage("--data-dir needs a value (see --help)");
    }

    @Test
    void helpListsEveryOption() {
        assertThat(StandaloneOptions.asksForHelp("demo", "--help")).isTrue();
        assertThat(StandaloneOptions.usage()).startsWith("usage: java -jar standalone/target/cctflow-standalone.jar")
                .contains("demo", "--data-dir", "--port", "--bind", "--agent-jar", "--set", "--help", "(default 8080)");
    }
}
