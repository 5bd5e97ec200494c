package io.cctflow.query.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;

/**
 * Bearer-token authentication in front of a handler, by the rules of {@link AccessTokens}: a
 * request without a valid token gets 401 (with {@code WWW-Authenticate}), a write with a read-only
 * token, or any write while writes are disabled, gets 403; neither reaches the handler.
 * Thread-safe.
 */
public final class BearerAuth implements HttpHandler {
    private final AccessTokens tokens;
    private final HttpHandler next;

    public BearerAuth(AccessTokens tokens, HttpHandler next) {
        this.tokens = tokens;
        this.next = next;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        AccessTokens.Decision decision = tokens.decide(exchange.getRequestMethod(), header);
        if (decision == AccessTokens.Decision.ALLOWED) {
            next.handle(exchange);
            return;
        }
        if (decision == AccessTokens.Decision.UNAUTHENTICATED) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"cctflow\"");
        }
        JsonHandler.respond(exchange, () -> {
            throw switch (decision) {
                case UNAUTHENTICATED -> new ApiException(401, header == null
                        ? "authentication required: send the header 'Authorization: Bearer <token>'"
                        : "the bearer token in the Authorization header is not valid");
                case READ_ONLY_TOKEN -> new ApiException(403, "this token may only read; "
                        + exchange.getRequestMethod() + " needs the write token (auth.write-token)");
                default -> new ApiException(403, "writes are disabled: the service has auth.token but no "
                        + "auth.write-token");
            };
        });
    }
}
