package io.cctflow.query.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Optional bearer-token authentication in front of a handler: with a token configured, a request
 * without {@code Authorization: Bearer <token>} gets 401 and never reaches the handler. The token
 * is compared in constant time. Thread-safe.
 */
public final class BearerAuth implements HttpHandler {
    private final byte[] expected;
    private final HttpHandler next;

    /** @param token the required token; empty: every request passes */
    public BearerAuth(String token, HttpHandler next) {
        this.expected = token.isEmpty() ? null : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        this.next = next;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        if (expected != null) {
            String header = exchange.getRequestHeaders().getFirst("Authorization");
            byte[] given = header == null ? new byte[0] : header.trim().getBytes(StandardCharsets.UTF_8);
            if (!MessageDigest.isEqual(expected, given)) {
                exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"cctflow\"");
                JsonHandler.respond(exchange, () -> {
                    throw new ApiException(401, header == null
                            ? "authentication required: send the header 'Authorization: Bearer <token>'"
                            : "the bearer token in the Authorization header is not valid");
                });
                return;
            }
        }
        next.handle(exchange);
    }
}
