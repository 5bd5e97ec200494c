package io.cctflow.query.http;

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
    /** Compact: indenting a deep tree (a flame graph of 100,000 nodes) multiplies its size several times. */
    static final ObjectMapper JSON = new ObjectMapper();

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
     * throws as {@code {"error": ...}}; never a stack trace.
     */
    public static void respond(HttpExchange exchange, Supplier<Object> action) throws IOException {
        int status;
        Object body;
        try {
            body = action.get();
            status = 200;
            if (body instanceof Status s) {
                status = s.status();
                body = s.body();
            }
        } catch (ApiException e) {
            status = e.status();
            body = Map.of("error", e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("request {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            status = 500;
            body = Map.of("error", "internal error; the server log has the details");
        }
        byte[] bytes;
        if (body instanceof PlainText text) {
            bytes = text.text().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        } else {
            bytes = JSON.writeValueAsBytes(body);
            exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        }
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The shared JSON mapper (thread-safe once configured). */
    public static ObjectMapper json() {
        return JSON;
    }
}
