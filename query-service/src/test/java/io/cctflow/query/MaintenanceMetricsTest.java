package io.cctflow.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.query.alerting.AlertingMetrics;
import io.cctflow.servers.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code /metrics} carries the roll-up and retention loop's failure counters (issue 30, item 6). */
class MaintenanceMetricsTest {
    @Test
    void metricsCountFailedMaintenancePasses() throws Exception {
        try (QueryService service = QueryService.start(QueryServiceConfig.defaults().with(Map.of(
                QueryServiceConfig.PORT, "0", QueryServiceConfig.NEO4J_URI, TestServers.get().neo4jUri(),
                QueryServiceConfig.ROLLUP_INTERVAL, "1h")))) {
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + service.port() + "/metrics")).timeout(Duration.ofMinutes(1))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).contains(AlertingMetrics.MAINTENANCE_FAILURES + "_total 0.0")
                    .contains(AlertingMetrics.ROLLUP_REFUSED + "_total 0.0");
        }
    }
}
