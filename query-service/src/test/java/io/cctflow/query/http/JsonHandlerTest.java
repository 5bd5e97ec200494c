package io.cctflow.query.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.exceptions.ClientException;

/** Whatever a handler does, the client gets an answer: never a dropped connection or a hang. */
class JsonHandlerTest {
    private static ApiServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** A value Jackson cannot write: its getter throws. */
    public static final class Unwritable {
        public String getValue() {
            throw new IllegalStateException("no value");
        }
    }

    /** A kept answer: compressible, large enough that the server's own gzip would take it. */
    private static final JsonHandler.Prerendered KEPT = JsonHandler.prerenderGzipped(
            Map.of("frames", "java.lang.Thread.run;".repeat(5_000)));

    @BeforeAll
    static void start() throws Exception {
        server = new ApiServer("127.0.0.1", 0, ServerLimits.defaults());
        server.route("/overflow", new JsonHandler(p -> {
            throw new StackOverflowError();
        }));
        server.route("/assertion", new JsonHandler(p -> {
            throw new AssertionError("an Error, not an Exception");
        }));
        server.route("/unwritable", new JsonHandler(p -> Map.of("x", new Unwritable())));
        server.route("/kept", new JsonHandler(p -> KEPT));
        server.route("/bad", new JsonHandler(p -> {
            throw ApiException.badRequest("parameter 'x' is wrong");
        }));
        server.route("/neo4j-timeout", new JsonHandler(p -> {
            throw new IllegalStateException("reading failed", new ClientException(
                    "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration", "terminated"));
        }));
        server.start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void errorsAndUnwritableValuesAreA500WithAJsonBody() throws Exception {
        for (String path : new String[] {"/overflow", "/assertion", "/unwritable"}) {
            HttpResponse<String> r = get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(500);
            assertThat(r.headers().firstValue("Content-Type")).as(path).hasValue("application/json; charset=utf-8");
            assertThat(r.body()).as(path).isEqualTo("{\"error\":\"internal error; the server log has the details\"}");
        }
        HttpResponse<String> bad = get("/bad");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("parameter 'x' is wrong");
    }

    @Test
    void aNeo4jTransactionTimeoutIsA503NamingTheKey() throws Exception {
        HttpResponse<String> r = get("/neo4j-timeout");
        assertThat(r.statusCode()).isEqualTo(503);
        assertThat(r.body()).contains(ServerLimits.TRANSACTION_TIMEOUT);
    }

    @Test
    void aKeptAnswerIsSentGzippedOnceToAGzipClientAndAsItIsToAnyOther() throws Exception {
        for (String accept : new String[] {"gzip", "br, gzip;q=0.5", "deflate, gzip"}) {
            HttpResponse<byte[]> zipped = HTTP.send(request("/kept").header("Accept-Encoding", accept).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(zipped.statusCode()).isEqualTo(200);
            assertThat(zipped.headers().allValues("Content-Encoding")).as(accept).containsExactly("gzip");
            assertThat(zipped.headers().firstValue("Vary")).as(accept).hasValue("Accept-Encoding");
            assertThat(zipped.body()).as("the kept gzip, not compressed again").isEqualTo(KEPT.gzipped());
            try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(zipped.body()))) {
                assertThat(in.readAllBytes()).as("gunzipped: byte for byte the answer").isEqualTo(KEPT.bytes());
            }
        }
        for (String accept : new String[] {null, "identity", "gzip;q=0", "br"}) {
            HttpRequest.Builder r = request("/kept");
            if (accept != null) {
                r.header("Accept-Encoding", accept);
            }
            HttpResponse<byte[]> plain = HTTP.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(plain.statusCode()).isEqualTo(200);
            assertThat(plain.headers().firstValue("Content-Encoding")).as(String.valueOf(accept)).isEmpty();
            assertThat(plain.headers().firstValue("Vary")).as(String.valueOf(accept)).hasValue("Accept-Encoding");
            assertThat(plain.body()).as("identity for a client without gzip").isEqualTo(KEPT.bytes());
        }
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .timeout(Duration.ofSeconds(30));
    }

    private static HttpResponse<String> get(String path) throws Exception {
        int port = server.port();
        // bounded: before the fix the connection hung and this timed out
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
