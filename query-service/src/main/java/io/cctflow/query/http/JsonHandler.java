package io.cctflow.query.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adapts a GET endpoint to the JDK HTTP server: JSON out (or {@link PlainText}), {@link
 * ApiException} to its status with {@code {"error": message}}, anything else to 500 with no
 * internals: a stack trace never reaches a client, only the server log.
 */
public final class JsonHandler implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(JsonHandler.class);
    /**
     * Deepest JSON nesting written: a tree node takes two levels (its object and its {@code
     * children} array), so this allows trees of {@code MAX_TREE_DEPTH} levels plus their envelope.
     */
    public static final int MAX_TREE_DEPTH = 100_000;
    static final int MAX_NESTING = 2 * MAX_TREE_DEPTH + 16;
    /**
     * Compact: indenting a deep tree (a flame graph of 100,000 nodes) multiplies its size several
     * times. Nesting is allowed as deep as the deepest tree an answer may hold ({@link
     * #MAX_NESTING}); trees are written iteratively, so depth costs no stack.
     */
    static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(MAX_NESTING).build())
            .build());

    /** An endpoint: query parameters in, a value for Jackson (or {@link PlainText}) out. */
    @FunctionalInterface
    public interface Endpoint {
        Object handle(QueryParams params);
    }

    /** A text response body, e.g. collapsed stacks. */
    public record PlainText(String text) {
    }

    /** A response with a status other than 200. */
    public record Status(int status, Object body) {
    }

    private final Endpoint endpoint;

    public JsonHandler(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        respond(exchange, () -> {
            if (!"GET".equals(exchange.getRequestMethod())) {
                throw new ApiException(405, "method " + exchange.getRequestMethod() + " not allowed; use GET");
            }
            return endpoint.handle(new QueryParams(exchange.getRequestURI().getRawQuery()));
        });
    }

    /**
     * Runs {@code action} and sends what it returns (200, or a {@link Status}), or the error it
     * throws as {@code {"error": ...}}; never a stack trace. Every failure before the answer is
     * sent, an {@link Error} (e.g. a stack overflow) or a failure to serialise included, still
     * answers: 500 with a JSON body, so no client is left waiting on a dropped connection.
     */
    public static void respond(HttpExchange exchange, Supplier<Object> action) throws IOException {
        Rendered answer;
        try {
            answer = render(action.get());
        } catch (ApiException e) {
            answer = render(new Status(e.status(), Map.of("error", e.getMessage())));
        } catch (RuntimeException | Error e) {
            LOG.error("request {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            answer = render(new Status(500, Map.of("error", "internal error; the server log has the details")));
        }
        exchange.getResponseHeaders().set("Content-Type", answer.contentType());
        exchange.sendResponseHeaders(answer.status(), answer.bytes().length == 0 ? -1 : answer.bytes().length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer.bytes());
        }
    }

    private record Rendered(int status, String contentType, byte[] bytes) {
    }

    /** The bytes of a body; may throw (e.g. Jackson on a value it cannot write), before anything is sent. */
    private static Rendered render(Object value) {
        int status = 200;
        Object body = value;
        if (body instanceof Status s) {
            status = s.status();
            body = s.body();
        }
        if (body instanceof PlainText text) {
            return new Rendered(status, "text/plain; charset=utf-8", text.text().getBytes(StandardCharsets.UTF_8));
        }
        try {
            return new Rendered(status, "application/json; charset=utf-8", JSON.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the response as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The shared JSON mapper (thread-safe once configured). */
    public static ObjectMapper json() {
        return JSON;
    }
}
