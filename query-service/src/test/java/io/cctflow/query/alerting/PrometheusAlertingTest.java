package io.cctflow.query.alerting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.core.Cct;
import io.cctflow.core.ExecutionId;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.QueryService;
import io.cctflow.servers.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * a service and then v2, in which {@code Db.query} does four times the work (38 % of the samples
 * instead of 13 %; every other method's work unchanged, so their shares fall); a
 * real {@link QueryService} exports {@code /metrics}; a real Prometheus scrapes it and evaluates
 * the shipped rules ({@code k8s/prometheus/cctflow-rules.yaml}): the shift alert fires for
 * {@code Db.query} and for nothing else. Then v3, the same code as v2 (its samples differ by
 * noise only), replaces it: the v2 alert resolves, no alert fires for v3, and of v3's shifts only
 * the significant ones are exported. Every shift Prometheus scraped (and the firing alert's value)
 * equals the normalised {@code methodTime.delta} that {@code /api/v1/compare} reports for the same
 * two deployments, and the interval series its {@code low} and {@code high}.
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
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static final MethodRecord MAIN = MethodRecord.of("com.example.Main", "main", "([Ljava/lang/String;)V");
    private static final MethodRecord HANDLE = MethodRecord.of("com.example.Checkout", "handle", "()V");
    private static final MethodRecord PRICE = MethodRecord.of("com.example.Cart", "price", "()J");
    private static final MethodRecord QUERY = MethodRecord.of("com.example.Db", "query", "()V");
    private static final MethodRecord RENDER = MethodRecord.of("com.example.View", "render", "()V");
    /** Leaves whose work no deployment changes: the unchanged bulk the shares are normalised against. */
    private static final List<MethodRecord> OTHERS = List.of(MethodRecord.of("com.example.Log", "write", "()V"),
            MethodRecord.of("com.example.Cache", "get", "()V"), MethodRecord.of("com.example.Json", "encode", "()V"),
            MethodRecord.of("com.example.Auth", "check", "()V"), MethodRecord.of("com.example.Metrics", "count", "()V"));
    private static final List<MethodRecord> METHODS = java.util.stream.Stream.concat(
            java.util.stream.Stream.of(MAIN, HANDLE, PRICE, QUERY, RENDER), OTHERS.stream()).toList();
    /** Samples of each of {@link #OTHERS} per window. */
    private static final long OTHER = 100;

    /**
     * One minute window: main -> handle -> {price, query, render, the others} with the given sample
     * counts, {@value #OTHER} for each other.
     */
    private static Cct window(long price, long query, long render) {
        Cct tree = new Cct();
        MethodRecord[] leaves = {PRICE, QUERY, RENDER};
        long[] counts = {price, query, render};
        for (int s = 0; s < leaves.length; s++) {
            tree.addStack(new long[] {MAIN.id(), HANDLE.id(), leaves[s].id()}, new int[] {0, 12, 34}, 3, counts[s]);
        }
        for (MethodRecord other : OTHERS) {
            tree.addStack(new long[] {MAIN.id(), HANDLE.id(), other.id()}, new int[] {0, 12, 56}, 3, OTHER);
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
            for (int m = 50; m > 47; m--) { // v1: query 13 %
                store.write(new ExecutionId(SERVICE, "v1", "pod-a"), thisMinute - m * minute, window(600, 200, 200), METHODS);
            }
            for (int m = 30; m > 27; m--) { // v2: query does 4 times the work, 38 % of the samples
                store.write(new ExecutionId(SERVICE, "v2", "pod-b"), thisMinute - m * minute, window(600, 800, 200), METHODS);
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
                // the value the alert shows is the compare endpoint's for the same two deployments: Db.query's
                // normalised methodTime.delta, and the interval series its low and high
                JsonNode compared = methodTime(api, "v1", "v2", QUERY);
                double alerted = firing.get(0).path("value").asDouble();
                assertThat(alerted).as("alert value vs compare %s", compared)
                        .isEqualTo(compared.get("delta").asDouble(), offset(1e-12)).isGreaterThan(0.1);
                // not the raw difference of shares, which the others' unchanged work dilutes: 0.248
                double raw = 800.0 / 2100 - 200.0 / 1500;
                assertThat(alerted).as("normalised, not raw (%s)", raw).isGreaterThan(raw + 0.05);
                String series = "{version=\"v2\",method=\"" + QUERY.signature() + "\"}";
                assertThat(value(prometheus, MetricFamilies.SHIFT + series)).isEqualTo(alerted);
                for (String bound : List.of("low", "high")) {
                    assertThat(value(prometheus, MetricFamilies.SHIFT_INTERVAL + series.replace("}", ",bound=\"" + bound
                            + "\"}"))).as(bound).isEqualTo(compared.get(bound).asDouble(), offset(1e-12));
                }
                // the watched method's time went through the text format and Prometheus unchanged
                JsonNode watched = prometheus.query("cctflow_method_time_ratio{method=\"com.example.Db.query\"}");
                assertThat(watched).hasSize(1);
                assertThat(watched.get(0).get("value").get(1).asDouble()).isEqualTo(800.0 / 2100, offset(1e-12));

                // the refresh loop's own health, as documented
                assertThat(prometheus.query(AlertingMetrics.REFRESH_FAILURES + "_total").get(0).get("value").get(1)
                        .asDouble()).isZero();
                assertThat(prometheus.query(AlertingMetrics.LAST_REFRESH)).hasSize(1);
                assertThat(prometheus.query(AlertingMetrics.REFRESH_DURATION)).hasSize(1);

                // v3 (v2's code, different noise) replaces v2
                for (int m = 20; m > 17; m--) {
                    store.write(new ExecutionId(SERVICE, "v3", "pod-c"), thisMinute - m * minute,
                            window(595 + m, 810 - m, 205), METHODS);
                }
                long v3Written = System.nanoTime();
                // v3's samples are exported whether or not any shift is significant
                String v3Samples = MetricFamilies.DEPLOYMENT_SAMPLES + "{version=\"v3\"}";
                await("v3's samples scraped by Prometheus").atMost(DEADLINE).pollInterval(Duration.ofMillis(500))
                        .until(() -> prometheus.query(v3Samples).size() > 0);
                long v3Scraped = System.nanoTime();
                JsonNode v3 = prometheus.query(v3Samples);
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
                // only v3's significant shifts are exported (the compare endpoint's test on the stored windows,
                // windows as replicates), none large enough to alert on
                JsonNode shifts = prometheus.query("cctflow_method_time_shift_ratio{version=\"v3\"}");
                List<MethodSamples> v2Windows = new ArrayList<>();
                List<MethodSamples> v3Windows = new ArrayList<>();
                for (int m = 30; m > 27; m--) {
                    v2Windows.add(MethodSamples.of(window(600, 800, 200)));
                }
                for (int m = 20; m > 17; m--) {
                    v3Windows.add(MethodSamples.of(window(595 + m, 810 - m, 205)));
                }
                List<String> expected = ShiftRanking.significant(v3Windows, v2Windows, MethodComparison.DEFAULT_LEVEL,
                        METHODS.size()).stream().map(x -> METHODS.stream().filter(r -> r.id() == x.methodId())
                        .findFirst().orElseThrow().signature()).sorted().toList();
                List<String> exported = new ArrayList<>();
                shifts.forEach(s -> exported.add(s.get("metric").path("method").asText()));
                assertThat(exported).as("v3's exported shifts are its significant ones").containsExactlyInAnyOrderElementsOf(
                        expected);
                assertThat(expected).as("main and handle hold every sample on both sides: never significant")
                        .doesNotContain(MAIN.signature(), HANDLE.signature());
                for (JsonNode s : shifts) {
                    assertThat(s.get("metric").path("baseline_version").asText()).isEqualTo("v2");
                    assertThat(Math.abs(s.get("value").get(1).asDouble())).as(s.toString()).isLessThan(0.1);
                    MethodRecord m = METHODS.stream().filter(r -> r.signature().equals(s.get("metric").path("method")
                            .asText())).findFirst().orElseThrow();
                    assertThat(s.get("value").get(1).asDouble()).as("v3's shift of %s vs compare", m)
                            .isEqualTo(methodTime(api, "v2", "v3", m).get("delta").asDouble(), offset(1e-12));
                }
            }
        }
    }

    /** The value of the one series a PromQL selector matches. */
    private static double value(PrometheusProcess prometheus, String selector) {
        JsonNode result = prometheus.query(selector);
        assertThat(result).as(selector).hasSize(1);
        return result.get(0).get("value").get(1).asDouble();
    }

    /**
     * The {@code methodTime} of a method in {@code /api/v1/compare} of two versions of the service
     * (its delta, low and high: what the shift series must show).
     */
    private static JsonNode methodTime(QueryService api, String a, String b, MethodRecord method) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + api.port()
                + "/api/v1/compare?service=" + SERVICE + "&a.version=" + a + "&b.version=" + b)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode compare = JSON.readTree(response.body());
        for (JsonNode row : compare.get("methods")) {
            if (row.path("method").asText().equals(method.signature())) {
                return row.get("methodTime");
            }
        }
        throw new AssertionError(method.signature() + " not in the compare response " + compare.get("methods"));
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
