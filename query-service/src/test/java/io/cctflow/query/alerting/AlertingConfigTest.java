package io.cctflow.query.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AlertingConfigTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        AlertingConfig c = AlertingConfig.defaults();
        assertThat(c.enabled()).isTrue();
        assertThat(c.watch()).isEmpty();
        assertThat(c.tasks()).isEmpty();
        assertThat(c.topK()).isEqualTo(10);
        assertThat(c.window()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.refresh()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.minSamples()).isEqualTo(100);
    }

    @Test
    void parsesEveryKeyAndIgnoresKeysOfOtherParts() {
        AlertingConfig c = AlertingConfig.from(Map.of(
                AlertingConfig.WATCH, "checkout:com.example.Cart.total, checkout:com.example.Db.query(Ljava/lang/String;)V",
                AlertingConfig.TOP_K, "3", AlertingConfig.WINDOW, "PT2M", AlertingConfig.REFRESH, "500ms",
                AlertingConfig.MIN_SAMPLES, "7", AlertingConfig.ENABLED, "false", "neo4j.uri", "bolt://x:1",
                AlertingConfig.TASKS, "checkout:payment, cart : checkout flow"));
        assertThat(c.tasks()).containsExactly(new WatchedTask("checkout", "payment"),
                new WatchedTask("cart", "checkout flow"));
        assertThat(c.watch()).extracting(WatchedMethod::toString).containsExactly(
                "checkout:com.example.Cart.total", "checkout:com.example.Db.query(Ljava/lang/String;)V");
        assertThat(c.watch().get(1).method().descriptor()).isEqualTo("(Ljava/lang/String;)V");
        assertThat(c.topK()).isEqualTo(3);
        assertThat(c.window()).isEqualTo(Duration.ofMinutes(2));
        assertThat(c.refresh()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.minSamples()).isEqualTo(7);
        assertThat(c.enabled()).isFalse();
    }

    @Test
    void badValuesFailNamingTheKey() {
        assertThatThrownBy(() -> AlertingConfig.from(Map.of(AlertingConfig.TOP_K, "0")))
                .hasMessageContaining("alerting.top-k must be 1..100");
        assertThatThrownBy(() -> AlertingConfig.from(Map.of(AlertingConfig.TOP_K, "ten")))
                .hasMessageContaining("alerting.top-k must be a whole number");
        assertThatThrownBy(() -> AlertingConfig.from(Map.of(AlertingConfig.WINDOW, "5 minutes")))
                .hasMessageContaining("alerting.window: not a duration");
        assertThatThrownBy(() -> AlertingConfig.from(Map.of(AlertingConfig.REFRESH, "0s")))
                .hasMessageContaining("alerting.refresh must be > 0");
        assertThatThrownBy(() -> AlertingConfig.from(Map.of(AlertingConfig.WATCH, "com.example.Cart.total")))
                .hasMessageContaining("alerting.watch: entry 'com.example.Cart.total' must be service:");
        assertThatThrownBy(() -> AlertingConfig.from(Map.of(AlertingConfig.WATCH, "checkout:total")))
                .hasMessageContaining("alerting.watch: entry 'checkout:total': method must be");
        assertThatThrownBy(() -> AlertingConfig.from(Map.of(AlertingConfig.TASKS, "payment")))
                .hasMessageContaining("alerting.tasks: entry 'payment' must be service:task");
        assertThatThrownBy(() -> AlertingConfig.from(Map.of(AlertingConfig.TASKS, "checkout: ")))
                .hasMessageContaining("alerting.tasks: entry 'checkout:' must be service:task");
        assertThatThrownBy(() -> AlertingConfig.from(Map.of("alerting.topk", "3")))
                .hasMessageContaining("unknown alerting key(s) [alerting.topk]");
    }

    @Test
    void watchListIsCapped() {
        String list = IntStream.range(0, AlertingConfig.MAX_WATCHED + 1).mapToObj(i -> "s:com.example.C.m" + i)
                .collect(Collectors.joining(","));
        assertThatThrownBy(() -> AlertingConfig.from(Map.of(AlertingConfig.WATCH, list)))
                .hasMessageContaining("alerting.watch lists 101 methods; at most 100");
        String full = IntStream.range(0, AlertingConfig.MAX_WATCHED).mapToObj(i -> "s:com.example.C.m" + i)
                .collect(Collectors.joining(","));
        assertThat(AlertingConfig.from(Map.of(AlertingConfig.WATCH, full)).watch()).hasSize(AlertingConfig.MAX_WATCHED);
    }

    @Test
    void taskListIsCapped() {
        String list = IntStream.range(0, AlertingConfig.MAX_TASKS + 1).mapToObj(i -> "s:t" + i)
                .collect(Collectors.joining(","));
        assertThatThrownBy(() -> AlertingConfig.from(Map.of(AlertingConfig.TASKS, list)))
                .hasMessageContaining("alerting.tasks lists 21 tasks; at most 20");
    }
}
