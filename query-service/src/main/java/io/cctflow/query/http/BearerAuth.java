package io.cctflow.query.http;

import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Bearer-token authentication in front of a handler, by the rules of {@link AccessTokens}: a
 * request without a valid token gets 401 (with {@code WWW-Authenticate}), a write with a read-only
 * token 403 with {@code WWW-Authenticate: Bearer ..., error="insufficient_scope", scope="write"}, any
 * write while writes are disabled a plain 403; neither reaches the handler.
 * Thread-safe.
 */
public final class BearerAuth extends Handler.Wrapper {
    private final AccessTokens tokens;

    public BearerAuth(AccessTokens tokens, Handler next) {
        super(next);
        this.tokens = tokens;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String header = request.getHeaders().get("Authorization");
        String method = request.getMethod();
        AccessTokens.Decision decision = tokens.decide(method, header);
        if (decision == AccessTokens.Decision.ALLOWED) {
            return super.handle(request, response, callback);
        }
        // RFC 6750: a valid token without the right to write is insufficient_scope, so a client
        // (the web UI) knows another token would help, unlike writes being disabled altogether
        Map<String, String> headers = switch (decision) {
            case UNAUTHENTICATED -> Map.of("WWW-Authenticate", "Bearer realm=\"cctflow\"");
            case READ_ONLY_TOKEN -> Map.of("WWW-Authenticate",
                    "Bearer realm=\"cctflow\", error=\"insufficient_scope\", scope=\"write\"");
            default -> Map.of();
        };
        JsonHandler.respond(request, response, callback, headers, () -> {
            throw switch (decision) {
                case UNAUTHENTICATED -> new ApiException(401, header == null
                        ? "authentication required: send the header 'Authorization: Bearer <token>'"
                        : "the bearer token in the Authorization header is not valid");
                case READ_ONLY_TOKEN -> new ApiException(403, "this token may only read; " + method
                        + " needs the write token (auth.write-token)");
                default -> new ApiException(403, "writes are disabled: the service has auth.token but no "
                        + "auth.write-token");
            };
        });
        return true;
    }
}
