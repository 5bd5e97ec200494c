package io.cctflow.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.graph.write.GraphWriter;
import io.cctflow.query.api.compare.StoredStacks;
import io.cctflow.query.http.ServerLimits;
import io.cctflow.servers.TestServers;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * 100 concurrent heavy requests (whole trees and comparisons) while {@code /metrics} and
 * {@code /healthz} are polled in a loop: every heavy request is answered, with its result or,
 * beyond {@code http.heavy-requests}, with 503 and {@code Retry-After}; every scrape and probe is
 * answered. The scrape latencies are measured and reported (stdout and {@code
 * target/scrape-latency.txt}), not asserted: this machine's speed is not the code's property.
 */
class ScrapeUnderLoadTest {
    private static final int HEAVY = 100;
    private static final Duration TIMEOUT = Duration.ofMinutes(5); // bounded: a hang fails the test
    private static Driver driver;
    private static QueryService service;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

    @BeforeAll
    static void start() throws Exception {
        driver = TestServers.get().newDriver();
        new QueryFixture().write(driver, 3);
        GraphWriter writer = new GraphWriter(driver, "");
        Random random = new Random(42);
        for (String instance : List.of("l1", "l2")) {
            new StoredStacks("load", instance).add(StoredStacks.random(random, 3_000, 30, 200, 10)).write(writer);
        }
        service = QueryService.start(QueryServiceConfig.defaults().with(Map.of(QueryServiceConfig.PORT, "0",
                QueryServiceConfig.NEO4J_URI, TestServers.get().neo4jUri(), QueryServiceConfig.ROLLUP_INTERVAL, "0")));
    }

    @AfterAll
    static void stop() {
        service.close();
        driver.close();
    }

    @Test
    void metricsAreAnsweredWhileHundredHeavyRequestsRun() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> heavy = new ArrayList<>();
        for (int i = 0; i < HEAVY; i++) {
            String path = i % 2 == 0 ? "/api/v1/tree?service=shop&version=load"
                    : "/api/v1/compare?service=shop&version=load&a.instance=l1&b.instance=l2&top=100";
            heavy.add(HTTP.sendAsync(request(path), HttpResponse.BodyHandlers.ofString()));
        }
        CompletableFuture<Void> all = CompletableFuture.allOf(heavy.toArray(CompletableFuture[]::new));
        List<Long> micros = new ArrayList<>();
        while (!all.isDone() || micros.size() < 20) {
            long t0 = System.nanoTime();
            HttpResponse<String> scrape = HTTP.send(request("/metrics"), HttpResponse.BodyHandlers.ofString());
            micros.add((System.nanoTime() - t0) / 1_000);
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).contains("cctflow_alerting_refresh_failures");
            assertThat(HTTP.send(request("/healthz"), HttpResponse.BodyHandlers.ofString()).statusCode())
                    .isEqualTo(200);
        }
        int answered = 0;
        int turnedAway = 0;
        for (CompletableFuture<HttpResponse<String>> f : heavy) {
            HttpResponse<String> r = f.get();
            if (r.statusCode() == 503) {
                assertThat(r.headers().firstValue("Retry-After")).as(r.uri() + " " + r.body()).isPresent();
                assertThat(r.body()).contains(ServerLimits.HEAVY_REQUESTS);
                turnedAway++;
            } else {
                assertThat(r.statusCode()).as(r.uri() + " " + r.body()).isEqualTo(200);
                answered++;
            }
        }
        assertThat(answered).as("heavy requests within the cap are served").isPositive();
        Collections.sort(micros);
        String report = String.format("/metrics under %d concurrent heavy requests (%d served, %d turned away with"
                + " 503): %d scrapes, p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", HEAVY, answered, turnedAway,
                micros.size(), percentile(micros, 0.50) / 1000.0, percentile(micros, 0.99) / 1000.0,
                micros.get(micros.size() - 1) / 1000.0);
        System.out.print(report);
        Files.writeString(Path.of("target", "scrape-latency.txt"), report);
    }

    @Test
    void aTreeIsGzipEncodedWhenTheClientAcceptsIt() throws Exception {
        String path = "/api/v1/tree?service=shop&version=load";
        HttpResponse<byte[]> zipped = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port()
                + path)).header("Accept-Encoding", "gzip").timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(zipped.statusCode()).isEqualTo(200);
        assertThat(zipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(zipped.body()))) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .isEqualTo(HTTP.send(request(path), HttpResponse.BodyHandlers.ofString()).body());
        }
    }

    private static long percentile(List<Long> sorted, double p) {
        return sorted.get((int) Math.ceil(p * sorted.size()) - 1);
    }

    private static HttpRequest request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.port() + path)).timeout(TIMEOUT).build();
    }
}
