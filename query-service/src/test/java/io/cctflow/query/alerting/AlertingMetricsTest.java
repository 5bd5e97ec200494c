package io.cctflow.query.alerting;

import io.cctflow.graph.read.CatalogueReader;
import io.cctflow.graph.read.TopologyReader;
import io.cctflow.graph.read.WindowReader;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.cctflow.query.http.ApiServer;
import io.cctflow.query.http.ServerLimits;
import io.cctflow.core.ExecutionId;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.servers.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/** The refresh loop behind {@code /metrics}, served by the API's HTTP server as the query service does. */
class AlertingMetricsTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private String scrape(int port) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    @Test
    void aFailedRefreshIsCountedAndScrapesKeepServingThePreviousValues() throws Exception {
        TestServers.get().cleanNeo4j();
        Driver driver = TestServers.get().newDriver();
        GraphSchema.ensure(driver, "");
        long now = System.currentTimeMillis();
        Profiles p = Profiles.random(new Random(7), 50, 5, 4);
        new StoredProfiles(new GraphWriter(driver, "")).write(new ExecutionId("cart", "v1", "x"),
                now - now % StoredProfiles.WINDOW_MILLIS, p.tree(), StoredProfiles.methods(4));
        ApiServer server = new ApiServer("127.0.0.1", 0, ServerLimits.defaults());
        AlertingConfig config = AlertingConfig.from(Map.of(AlertingConfig.REFRESH, "100ms"));
        String series = "cctflow_deployment_samples{service=\"cart\",version=\"v1\"} " + (double) p.samples();
        try (AlertingMetrics metrics = AlertingMetrics.start(new CatalogueReader(driver, ""),
                new WindowReader(driver, ""), new TopologyReader(driver, ""), config, Clock.systemUTC())) {
            server.route("/metrics", metrics.handler());
            server.start();
            int port = server.port();
            await("first refresh served").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                    .until(() -> scrape(port).contains(series));
            assertThat(scrape(port)).contains("cctflow_alerting_refresh_failures_total 0.0");

            driver.close(); // every later refresh fails at once

            await("a failed refresh counted").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(100))
                    .until(() -> !scrape(port).contains("cctflow_alerting_refresh_failures_total 0.0"));
            assertThat(scrape(port)).contains(series);
        } finally {
            server.close();
            driver.close();
        }
    }
}
