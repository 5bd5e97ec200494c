package io.cctflow.query.http;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The one answer of a request: the handler's, or the request deadline's ({@link RequestDeadline})
 * when the handler is too slow, whichever claims it first; the other is dropped. Take it with
 * {@link #of} when the request arrives, before any slow work: once answered, Jetty may reuse the
 * request object for the connection's next request. Thread-safe.
 */
public final class Reply {
    private static final String ATTRIBUTE = Reply.class.getName();

    private final AtomicBoolean claimed = new AtomicBoolean();
    private final boolean head;

    private Reply(boolean head) {
        this.head = head;
    }

    /** The request's reply, made by the deadline in front; a fresh one where no deadline is. */
    public static Reply of(Request request) {
        Object existing = request.getAttribute(ATTRIBUTE);
        return existing instanceof Reply r ? r : new Reply("HEAD".equals(request.getMethod()));
    }

    /** Makes the reply of a request arriving, which {@link #of} returns from then on. */
    static Reply expect(Request request) {
        Reply r = new Reply("HEAD".equals(request.getMethod()));
        request.setAttribute(ATTRIBUTE, r);
        return r;
    }

    /**
     * Sends the answer, unless another was sent first; then only completes {@code callback}, so
     * the handler's chain (e.g. a heavy-request slot) is released all the same.
     */
    public void send(Response response, Callback callback, int status, String contentType, byte[] body,
            Map<String, String> headers) {
        if (!trySend(response, callback, status, contentType, body, headers)) {
            callback.succeeded();
        }
    }

    /** Sends the answer when none was sent yet; false (and nothing done) otherwise. */
    boolean trySend(Response response, Callback callback, int status, String contentType, byte[] body,
            Map<String, String> headers) {
        if (!claimed.compareAndSet(false, true)) {
            return false;
        }
        response.setStatus(status);
        HttpFields.Mutable fields = response.getHeaders();
        fields.put(HttpHeader.CONTENT_TYPE, contentType);
        headers.forEach(fields::put);
        fields.put(HttpHeader.CONTENT_LENGTH, Integer.toString(body.length));
        response.write(true, head ? ByteBuffer.allocate(0) : ByteBuffer.wrap(body), callback);
        return true;
    }
}
