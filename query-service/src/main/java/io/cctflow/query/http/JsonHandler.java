package io.cctflow.query.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adapts a GET endpoint to the JDK HTTP server: JSON out, {@link ApiException} to its status with
 * {@code {"error": message}}, anything else to 500 with no internals: a stack trace never reaches
 * a client, only the server log.
 */
public final class JsonHandler implements HttpHandler {
    private static final Logger LOG = LoggerFactory.getLogger(JsonHandler.class);
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** An endpoint: query parameters in, a value for Jackson out. */
    @FunctionalInterface
    public interface Endpoint {
        Object handle(QueryParams params);
    }

    private final Endpoint endpoint;

    public JsonHandler(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        int status;
        Object body;
        try {
            if (!"GET".equals(exchange.getRequestMethod())) {
                throw new ApiException(405, "method " + exchange.getRequestMethod() + " not allowed; use GET");
            }
            body = endpoint.handle(new QueryParams(exchange.getRequestURI().getRawQuery()));
            status = 200;
        } catch (ApiException e) {
            status = e.status();
            body = Map.of("error", e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("request {} failed", exchange.getRequestURI(), e);
            status = 500;
            body = Map.of("error", "internal error; the server log has the details");
        }
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
