package io.cctflow.query.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adapts a GET endpoint to Jetty's Handler API: JSON out (or {@link PlainText}), {@link
 * ApiException} to its status with {@code {"error": message}}, anything else to 500 with no
 * internals: a stack trace never reaches a client, only the server log.
 */
public final class JsonHandler extends Handler.Abstract {
    private static final Logger LOG = LoggerFactory.getLogger(JsonHandler.class);
    /**
     * Deepest JSON nesting written: a tree node takes two levels (its object and its {@code
     * children} array), so this allows trees of {@code MAX_TREE_DEPTH} levels plus their envelope.
     */
    public static final int MAX_TREE_DEPTH = 100_000;
    static final int MAX_NESTING = 2 * MAX_TREE_DEPTH + 16;
    static final String JSON_TYPE = "application/json; charset=utf-8";
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

    /**
     * A 200 answer already rendered, e.g. one a cache kept: sent as it is, and with {@code gzipped}
     * (its gzip member, or null) sent as that to a client that accepts gzip ({@code Content-Encoding:
     * gzip}, {@code Vary: Accept-Encoding}; the server's gzip leaves an encoded answer alone), so
     * it is deflated once, not per request. The bytes may be shared between requests: nobody may
     * modify them.
     */
    public record Prerendered(String contentType, byte[] bytes, byte[] gzipped) {
        /** Bytes held: both forms. */
        public long size() {
            return bytes.length + (gzipped == null ? 0L : gzipped.length);
        }
    }

    /** The 200 answer {@code value} (what an endpoint returns) rendered; throws as rendering it would. */
    public static Prerendered prerender(Object value) {
        Rendered r = render(value);
        return new Prerendered(r.contentType(), r.bytes(), null);
    }

    /** {@link #prerender} with its gzip member too: an answer to keep and send many times. */
    public static Prerendered prerenderGzipped(Object value) {
        Rendered r = render(value);
        return new Prerendered(r.contentType(), r.bytes(), GzipBodies.gzip(r.bytes()));
    }

    /** A response with a status other than 200. */
    public record Status(int status, Object body) {
    }

    private final Endpoint endpoint;

    public JsonHandler(Endpoint endpoint) {
        this.endpoint = endpoint;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        String query = request.getHttpURI().getQuery();
        respond(request, response, callback, () -> {
            if (!"GET".equals(method)) {
                throw new ApiException(405, "method " + method + " not allowed; use GET");
            }
            return endpoint.handle(new QueryParams(query));
        });
        return true;
    }

    /**
     * Runs {@code action} and sends what it returns (200, or a {@link Status}), or the error it
     * throws as {@code {"error": ...}}; never a stack trace. Every failure before the answer is
     * sent, an {@link Error} (e.g. a stack overflow) or a failure to serialise included, still
     * answers: 500 with a JSON body, so no client is left waiting on a dropped connection.
     */
    public static void respond(Request request, Response response, Callback callback, Supplier<Object> action) {
        respond(request, response, callback, Map.of(), action);
    }

    /** As {@link #respond(Request, Response, Callback, Supplier)}, with these headers on the answer. */
    public static void respond(Request request, Response response, Callback callback, Map<String, String> headers,
            Supplier<Object> action) {
        Reply reply = Reply.of(request);
        String what = request.getMethod() + " " + request.getHttpURI().getPathQuery();
        Rendered answer;
        try {
            answer = render(action.get());
        } catch (ApiException e) {
            answer = new Rendered(e.status(), JSON_TYPE, errorBody(e.getMessage()), null);
        } catch (RuntimeException | Error e) {
            ApiException known = Neo4jTimeouts.asApiException(e);
            if (known != null) {
                answer = new Rendered(known.status(), JSON_TYPE, errorBody(known.getMessage()), null);
            } else {
                LOG.error("request {} failed", what, e);
                answer = new Rendered(500, JSON_TYPE, errorBody("internal error; the server log has the details"),
                        null);
            }
        }
        drainBody(request);
        if (answer.gzipped() == null) {
            reply.send(response, callback, answer.status(), answer.contentType(), answer.bytes(), headers);
            return;
        }
        Map<String, String> encoded = new LinkedHashMap<>(headers);
        encoded.put(HttpHeader.VARY.asString(), HttpHeader.ACCEPT_ENCODING.asString());
        boolean gzip = GzipBodies.accepted(request);
        if (gzip) {
            encoded.put(HttpHeader.CONTENT_ENCODING.asString(), "gzip");
        }
        reply.send(response, callback, answer.status(), answer.contentType(),
                gzip ? answer.gzipped() : answer.bytes(), encoded);
    }

    /** Most request-body bytes read and dropped so that an early answer reaches the client. */
    static final int DRAIN_LIMIT = 1 << 20;

    /**
     * Reads and drops what the client sent that the endpoint did not read (a body on a GET, a
     * method answered 405 before its body was looked at), up to {@link #DRAIN_LIMIT} bytes. An
     * answer sent while the client is still writing its body is otherwise lost: the server closes
     * the connection under the client's write, and the client sees no answer at all.
     */
    static void drainBody(Request request) {
        InputStream in = Content.Source.asInputStream(request); // not closed: closing fails an unread source
        byte[] sink = new byte[8192];
        try {
            for (int total = 0, n; total < DRAIN_LIMIT && (n = in.read(sink)) >= 0; total += n) {
                // dropped
            }
        } catch (IOException e) {
            // the client went away or sent a broken body: the answer goes out as far as it can
        }
    }

    /** The body {@code {"error": message}}. */
    static byte[] errorBody(String message) {
        return render(Map.of("error", message)).bytes();
    }

    /** A body, and its gzip member when one was made ahead ({@link Prerendered}), else null. */
    private record Rendered(int status, String contentType, byte[] bytes, byte[] gzipped) {
    }

    /** The bytes of a body; may throw (e.g. Jackson on a value it cannot write), before anything is sent. */
    private static Rendered render(Object value) {
        int status = 200;
        Object body = value;
        if (body instanceof Status s) {
            status = s.status();
            body = s.body();
        }
        if (body instanceof Prerendered p) {
            return new Rendered(status, p.contentType(), p.bytes(), p.gzipped());
        }
        if (body instanceof PlainText text) {
            return new Rendered(status, "text/plain; charset=utf-8", text.text().getBytes(StandardCharsets.UTF_8),
                    null);
        }
        try {
            return new Rendered(status, JSON_TYPE, JSON.writeValueAsBytes(body), null);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the response as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** The shared JSON mapper (thread-safe once configured). */
    public static ObjectMapper json() {
        return JSON;
    }
}
