package io.cctflow.query.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The server's limits with endpoints that block until released: heavy requests beyond the cap are
 * turned away with 503 and {@code Retry-After}; light endpoints answer while the cap is full; a
 * request past the request timeout is answered, not dropped; answers are gzipped when asked.
 * The JDK server this replaced had none of these: its four threads all blocked, and the scrape hung.
 */
class ApiServerTest {
    private static final Duration BOUND = Duration.ofSeconds(60); // a hang fails the test instead
    private static final int HEAVY = 2;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(BOUND).build();
    private final CountDownLatch release = new CountDownLatch(1);
    private final Semaphore started = new Semaphore(0);
    private ApiServer server;

    /** Blocks until the test releases it, then answers. */
    private JsonHandler blocking() {
        return new JsonHandler(p -> {
            started.release();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Map.of("done", true);
        });
    }

    private void start(Duration requestTimeout) throws Exception {
        ServerLimits limits = new ServerLimits(ServerLimits.MIN_THREADS, 64, Duration.ofSeconds(30), requestTimeout,
                HEAVY, Duration.ofSeconds(7), Duration.ofSeconds(30));
        server = new ApiServer("127.0.0.1", 0, limits);
        server.route("/slow", server.heavy(blocking()));
        server.route("/stuck", blocking());
        server.route("/healthz", new JsonHandler(p -> Map.of("status", "up")));
        server.route("/metrics", new JsonHandler(p -> new JsonHandler.PlainText("cctflow_up 1\n")));
        server.route("/big", new JsonHandler(p -> Map.of("text", "flame ".repeat(10_000))));
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.close();
    }

    @Test
    void heavyRequestsBeyondTheCapGet503WithRetryAfterWhileLightOnesAnswer() throws Exception {
        start(Duration.ofMinutes(5));
        List<CompletableFuture<HttpResponse<String>>> running = new ArrayList<>();
        for (int i = 0; i < HEAVY; i++) {
            running.add(http.sendAsync(request("/slow").build(), HttpResponse.BodyHandlers.ofString()));
        }
        assertThat(started.tryAcquire(HEAVY, BOUND.toSeconds(), TimeUnit.SECONDS)).as("the cap filled").isTrue();

        for (int i = 0; i < 10; i++) { // more than the request threads: none waits for a slot
            HttpResponse<String> turnedAway = send("/slow");
            assertThat(turnedAway.statusCode()).isEqualTo(503);
            assertThat(turnedAway.headers().firstValue("Retry-After")).hasValue("7");
            assertThat(turnedAway.body()).contains(ServerLimits.HEAVY_REQUESTS);
        }
        for (int i = 0; i < 3 * ServerLimits.MIN_THREADS; i++) {
            assertThat(send("/healthz").statusCode()).isEqualTo(200);
            HttpResponse<String> scrape = send("/metrics");
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).isEqualTo("cctflow_up 1\n");
        }
        assertThat(running).allMatch(f -> !f.isDone());

        release.countDown();
        for (CompletableFuture<HttpResponse<String>> f : running) {
            assertThat(f.get().statusCode()).isEqualTo(200);
            assertThat(f.get().body()).isEqualTo("{\"done\":true}");
        }
        assertThat(send("/slow").statusCode()).as("slots are given back").isEqualTo(200);
    }

    @Test
    void aRequestPastTheRequestTimeoutIsAnsweredWith503() throws Exception {
        start(Duration.ofMillis(300));
        for (String path : List.of("/stuck", "/slow", "/stuck")) {
            HttpResponse<String> late = send(path);
            assertThat(late.statusCode()).as(path).isEqualTo(503);
            assertThat(late.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
            assertThat(late.body()).as(path).contains(ServerLimits.REQUEST_TIMEOUT);
        }
        release.countDown();
        assertThat(send("/healthz").statusCode()).isEqualTo(200);
    }

    @Test
    void answersAreGzippedWhenTheClientAcceptsIt() throws Exception {
        start(Duration.ofMinutes(5));
        HttpResponse<byte[]> zipped = http.send(request("/big").header("Accept-Encoding", "gzip").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(zipped.statusCode()).isEqualTo(200);
        assertThat(zipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
        String body;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(zipped.body()))) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(zipped.body().length).isLessThan(body.length() / 10);
        assertThat(body).isEqualTo(send("/big").body());
        assertThat(send("/big").headers().firstValue("Content-Encoding")).as("only when asked").isEmpty();
    }

    @Test
    void errorsJettyAnswersItselfAreJsonToo() throws Exception {
        start(Duration.ofMinutes(5));
        HttpResponse<String> tooLong = send("/healthz?x=" + "a".repeat(20_000));
        assertThat(tooLong.statusCode()).isEqualTo(414);
        assertThat(tooLong.headers().firstValue("Content-Type")).hasValue("application/json; charset=utf-8");
        assertThat(tooLong.body()).isEqualTo("{\"error\":\"HTTP 414: URI Too Long\"}");
        HttpResponse<String> ambiguous = send("/healthz/%25");
        assertThat(ambiguous.statusCode()).isEqualTo(400);
        assertThat(ambiguous.body()).startsWith("{\"error\":\"HTTP 400: ");
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).timeout(BOUND);
    }

    private HttpResponse<String> send(String path) throws Exception {
        return http.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
    }
}
