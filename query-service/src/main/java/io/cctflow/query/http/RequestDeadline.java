package io.cctflow.query.http;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Answers every request within {@code http.request-timeout}: when the handler has not answered by
 * then, the client gets 503 with a JSON error naming the key, and whatever the handler sends later
 * is dropped ({@link Reply}). The handler's work is not interrupted: Neo4j ends its reads at
 * {@code neo4j.transaction-timeout}, and a heavy request keeps its slot until the work is done, so
 * the slot count stays the work really running. Thread-safe.
 */
final class RequestDeadline extends Handler.Wrapper {
    /**
     * On a late answer: the connection's next request would wait until the abandoned handler
     * returns, so the client is told to open a new one.
     */
    private static final Map<String, String> CLOSE = Map.of("Connection", "close");
    private final Scheduler scheduler;
    private final Duration timeout;
    private final byte[] lateAnswer;

    RequestDeadline(Scheduler scheduler, Duration timeout, Handler next) {
        super(next);
        this.scheduler = scheduler;
        this.timeout = timeout;
        this.lateAnswer = JsonHandler.errorBody("the request took longer than " + ServerLimits.REQUEST_TIMEOUT + " ("
                + timeout.toMillis() + " ms) and was abandoned; narrow the time range or the selection, or raise "
                + ServerLimits.REQUEST_TIMEOUT);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Reply reply = Reply.expect(request);
        Callback once = new Once(callback);
        Scheduler.Task late = scheduler.schedule(() -> reply.trySend(response, once, 503, JsonHandler.JSON_TYPE,
                lateAnswer, CLOSE), timeout);
        Callback done = Callbacks.runningFirst(once, late::cancel);
        try {
            if (super.handle(request, response, done)) {
                return true;
            }
        } catch (Exception | Error e) {
            late.cancel();
            throw e;
        }
        late.cancel();
        return false;
    }

    /** Passes on the first completion only: the deadline's or the handler's. */
    private static final class Once implements Callback {
        private final Callback callback;
        private final AtomicBoolean completed = new AtomicBoolean();

        Once(Callback callback) {
            this.callback = callback;
        }

        @Override
        public void succeeded() {
            if (completed.compareAndSet(false, true)) {
                callback.succeeded();
            }
        }

        @Override
        public void failed(Throwable x) {
            if (completed.compareAndSet(false, true)) {
                callback.failed(x);
            }
        }

        @Override
        public InvocationType getInvocationType() {
            return callback.getInvocationType();
        }
    }
}
