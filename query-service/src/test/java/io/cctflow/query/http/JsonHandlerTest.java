package io.cctflow.query.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Whatever a handler does, the client gets an answer: never a dropped connection or a hang. */
class JsonHandlerTest {
    private static HttpServer server;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    /** A value Jackson cannot write: its getter throws. */
    public static final class Unwritable {
        public String getValue() {
            throw new IllegalStateException("no value");
        }
    }

    @BeforeAll
    static void start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
        server.createContext("/overflow", new JsonHandler(p -> {
            throw new StackOverflowError();
        }));
        server.createContext("/assertion", new JsonHandler(p -> {
            throw new AssertionError("an Error, not an Exception");
        }));
        server.createContext("/unwritable", new JsonHandler(p -> Map.of("x", new Unwritable())));
        server.createContext("/bad", new JsonHandler(p -> {
            throw ApiException.badRequest("parameter 'x' is wrong");
        }));
        server.start();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
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

    private static HttpResponse<String> get(String path) throws Exception {
        int port = server.getAddress().getPort();
        // bounded: before the fix the connection hung and this timed out
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
