package io.cctflow.query.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.QueryService;
import io.cctflow.servers.TestServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.neo4j.driver.Driver;

/**
 * The alerting proof end to end: the graph-store writer fills a real Neo4j with deployment v1 of
 * a service and then v2, in which {@code Db.query} takes 60 % of the samples instead of 20 %; a
 * real {@link QueryService} exports {@code /metrics}; a real Prometheus scrapes it and evaluates
 * the shipped rules ({@code k8s/prometheus/cctflow-rules.yaml}): the shift alert fires for
 * {@code Db.query} and for nothing else. Then v3, the same code as v2 (its samples differ by
 * noise only), replaces it: the v2 alert resolves and no alert fires for v3.
 *
 * <p>The rules are the shipped file with every {@code for:} shortened to {@value #FOR} (the
 * expressions and thresholds are unchanged), and Prometheus scrapes and evaluates every second,
 * so the test takes seconds instead of the rules' 10 minutes.
 */
class PrometheusAlertingTest {
    private static final String FOR = "3s";
    private static final String ALERT = "CctflowMethodTimeShift";
    private static final Duration DEADLINE = Duration.ofMinutes(3);
    private static final String SERVICE = "checkout";

    private static final MethodRecord MAIN = MethodRecord.of("com.example.Main", "main", "([Ljava/lang/String;)V");
    private static final MethodRecord HANDLE = MethodRecord.of("com.example.Checkout", "handle", "()V");
    private static final MethodRecord PRICE = MethodRecord.of("com.example.Cart", "price", "()J");
    private static final MethodRecord QUERY = MethodRecord.of("com.example.Db", "query", "()V");
    private static final MethodRecord RENDER = MethodRecord.of("com.example.View", "render", "()V");
    private static final List<MethodRecord> METHODS = List.of(MAIN, HANDLE, PRICE, QUERY, RENDER);

    /** One minute window: main -> handle -> {price, query, render} with the given sample counts. */
    private static Cct window(long price, long query, long render) {
        Cct tree = new Cct();
        long[][] stacks = {
            {MAIN.id(), HANDLE.id(), PRICE.id()}, {MAIN.id(), HANDLE.id(), QUERY.id()},
            {MAIN.id(), HANDLE.id(), RENDER.id()}};
        long[] counts = {price, query, render};
        for (int s = 0; s < stacks.length; s++) {
            tree.addStack(stacks[s], new int[] {0, 12, 34}, 3, counts[s]);
        }
        return tree;
    }

    /** The shipped rules with shorter {@code for:} durations, written under target/. */
    private static Path fastRules(Path dir) throws Exception {
        String rules = Files.readString(Path.of("..", "k8s", "prometheus", "cctflow-rules.yaml"));
        Matcher m = Pattern.compile("(?m)^(\\s+for:\\s*)\\S+\\s*$").matcher(rules);
        String fast = m.replaceAll("$1" + FOR);
        assertThat(fast).as("the shipped rules have for: clauses to shorten").isNotEqualTo(rules);
        Files.createDirectories(dir);
        Path out = dir.resolve("cctflow-rules-fast.yaml");
        Files.writeString(out, fast);
        return out;
    }

    private static List<JsonNode> alerts(PrometheusProcess prometheus) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode a : prometheus.api("/api/v1/alerts").get("alerts")) {
            if (ALERT.equals(a.path("labels").path("alertname").asText())) {
                out.add(a);
            }
        }
        return out;
    }

    private static String describe(List<JsonNode> alerts) {
        return alerts.stream().map(a -> a.path("state").asText() + " " + a.path("labels")).toList().toString();
    }

    @Test
    @Timeout(600)
    void shiftAlertFiresForTheSlowerMethodAndNotForAnUnchangedDeployment() throws Exception {
        PrometheusProcess.binary(); // fails first, with the install hint, when Prometheus is missing
        TestServers servers = TestServers.get();
        servers.cleanNeo4j();
        long minute = StoredProfiles.WINDOW_MILLIS;
        long now = System.currentTimeMillis();
        long thisMinute = now - now % minute;
        Path dir = Path.of("target", "prometheus-e2e-" + now);

        try (Driver driver = servers.newDriver()) {
            GraphSchema.ensure(driver, "");
            StoredProfiles store = new StoredProfiles(new GraphWriter(driver, ""));
            for (int m = 50; m > 47; m--) { // v1: query 20 %
                store.write(new ExecutionId(SERVICE, "v1", "pod-a"), thisMinute - m * minute, window(600, 200, 200), METHODS);
            }
            for (int m = 30; m > 27; m--) { // v2: query 60 %
                store.write(new ExecutionId(SERVICE, "v2", "pod-b"), thisMinute - m * minute, window(200, 600, 200), METHODS);
            }

            AlertingConfig config = AlertingConfig.from(Map.of(AlertingConfig.WINDOW, "1h",
                    AlertingConfig.REFRESH, "1s", AlertingConfig.MIN_SAMPLES, "100",
                    AlertingConfig.WATCH, SERVICE + ":com.example.Db.query"));
            GraphStoreConfig graph = new GraphStoreConfig(servers.neo4jUri(), servers.neo4jUser(),
                    servers.neo4jPassword(), "");
            try (QueryService api = QueryService.start(graph, "127.0.0.1", 0, config);
                    PrometheusProcess prometheus = PrometheusProcess.start(dir, "127.0.0.1:" + api.port(),
                            fastRules(dir))) {
                long ready = System.nanoTime();

                // v2 against v1: the alert fires for Db.query only
                await("alert " + ALERT + " firing for v2 (Prometheus log: " + prometheus.log() + ")")
                        .atMost(DEADLINE).pollInterval(Duration.ofMillis(500))
                        .until(() -> alerts(prometheus).stream().anyMatch(a -> "firing".equals(a.path("state").asText())));
                long fired = System.nanoTime();
                List<JsonNode> firing = alerts(prometheus);
                assertThat(firing).as(describe(firing)).hasSize(1);
                JsonNode labels = firing.get(0).get("labels");
                assertThat(labels.path("service").asText()).isEqualTo(SERVICE);
                assertThat(labels.path("version").asText()).isEqualTo("v2");
                assertThat(labels.path("baseline_version").asText()).isEqualTo("v1");
                assertThat(labels.path("method").asText()).isEqualTo(QUERY.signature());
                assertThat(firing.get(0).path("value").asDouble()).isEqualTo(0.6 - 0.2, org.assertj.core.data.Offset.offset(1e-9));
                // the watched method's time went through the text format and Prometheus unchanged
                JsonNode watched = prometheus.query("cctflow_method_time_ratio{method=\"com.example.Db.query\"}");
                assertThat(watched).hasSize(1);
                assertThat(watched.get(0).get("value").get(1).asDouble()).isEqualTo(0.6);

                // the refresh loop's own health, as documented
                assertThat(prometheus.query(AlertingMetrics.REFRESH_FAILURES + "_total").get(0).get("value").get(1)
                        .asDouble()).isZero();
                assertThat(prometheus.query(AlertingMetrics.LAST_REFRESH)).hasSize(1);
                assertThat(prometheus.query(AlertingMetrics.REFRESH_DURATION)).hasSize(1);

                // v3 (v2's code, different noise) replaces v2
                for (int m = 20; m > 17; m--) {
                    store.write(new ExecutionId(SERVICE, "v3", "pod-c"), thisMinute - m * minute,
                            window(205 + m, 590 - m, 205), METHODS);
                }
                long v3Written = System.nanoTime();
                await("v3's shifts scraped by Prometheus").atMost(DEADLINE).pollInterval(Duration.ofMillis(500))
                        .until(() -> prometheus.query("cctflow_method_time_shift_ratio{version=\"v3\"}").size() > 0);
                long v3Scraped = System.nanoTime();
                JsonNode v3 = prometheus.query("cctflow_method_time_shift_ratio{version=\"v3\"}");
                double seen = v3.get(0).get("value").get(0).asDouble(); // evaluation time, Unix seconds
                await("v2's alert resolved").atMost(DEADLINE).pollInterval(Duration.ofMillis(500))
                        .until(() -> alerts(prometheus).stream()
                                .noneMatch(a -> "v2".equals(a.path("labels").path("version").asText())));
                long resolved = System.nanoTime();
                // wait until the rule has been evaluated for longer than its for: since v3 appeared
                double forSeconds = Duration.parse("PT" + FOR.toUpperCase()).toMillis() / 1000.0;
                await("rule evaluated " + FOR + " after v3 appeared").atMost(DEADLINE).pollInterval(Duration.ofMillis(500))
                        .until(() -> lastEvaluation(prometheus) > seen + forSeconds + 2);
                List<JsonNode> after = alerts(prometheus);
                assertThat(after).as("no pending or firing shift alert for an unchanged deployment: " + describe(after))
                        .isEmpty();
                System.out.printf("[PrometheusAlertingTest] Prometheus ready -> v2 alert firing: %.1f s (for: %s);"
                        + " v3 written -> scraped: %.1f s; -> v2 alert resolved: %.1f s%n", (fired - ready) / 1e9, FOR,
                        (v3Scraped - v3Written) / 1e9, (resolved - v3Written) / 1e9);
                JsonNode shifts = prometheus.query("cctflow_method_time_shift_ratio{version=\"v3\"}");
                assertThat(shifts).as("every method's shift v2 -> v3 is scraped").hasSize(METHODS.size());
                for (JsonNode s : shifts) {
                    assertThat(s.get("metric").path("baseline_version").asText()).isEqualTo("v2");
                    assertThat(Math.abs(s.get("value").get(1).asDouble())).as(s.toString()).isLessThan(0.1);
                }
            }
        }
    }

    /** When the shift rule was last evaluated, Unix seconds. */
    private static double lastEvaluation(PrometheusProcess prometheus) {
        JsonNode groups = prometheus.api("/api/v1/rules").get("groups");
        return StreamSupport.stream(groups.spliterator(), false)
                .flatMap(g -> StreamSupport.stream(g.get("rules").spliterator(), false))
                .filter(r -> ALERT.equals(r.path("name").asText()))
                .mapToDouble(r -> OffsetDateTime.parse(r.path("lastEvaluation").asText()).toInstant().toEpochMilli() / 1000.0)
                .max().orElse(0);
    }

}
