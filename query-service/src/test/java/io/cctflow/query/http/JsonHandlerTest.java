package io.cctflow.query.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
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

    private static HttpResponse<String> get(String path) throws Exception {
        int port = server.port();
        // bounded: before the fix the connection hung and this timed out
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
