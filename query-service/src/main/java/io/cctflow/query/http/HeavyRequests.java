package io.cctflow.query.http;

import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The cap on heavy requests (trees, comparisons): at most {@code http.heavy-requests} run at once,
 * each on a thread of this pool, never on a request thread, so a scrape or a probe always finds a
 * request thread free of them. One more is answered at once with 503 and {@code Retry-After};
 * none waits. A slot is held until the handler's work is done, even when the request deadline
 * answered first. Thread-safe.
 */
final class HeavyRequests implements AutoCloseable {
    private final Semaphore slots;
    private final ExecutorService pool;
    private final int max;
    private final String retryAfter;

    HeavyRequests(ServerLimits limits) {
        this.max = limits.heavyRequests();
        this.slots = new Semaphore(max);
        this.retryAfter = limits.retryAfterSeconds();
        ThreadPoolExecutor executor = new ThreadPoolExecutor(max, max, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "cctflow-heavy");
                    t.setDaemon(true);
                    return t;
                });
        executor.allowCoreThreadTimeOut(true);
        this.pool = executor; // never more queued than slots: a task is submitted only with a slot
    }

    /** {@code next} behind the cap. */
    Handler limit(Handler next) {
        return new Limited(next);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    private final class Limited extends Handler.Wrapper {
        Limited(Handler next) {
            super(next);
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            if (!slots.tryAcquire()) {
                turnAway(request, response, callback);
                return true;
            }
            Callback releasing = Callbacks.runningFirst(callback, slots::release);
            try {
                pool.execute(() -> run(request, response, releasing));
            } catch (RejectedExecutionException e) { // closing
                releasing.failed(e);
            }
            return true;
        }

        private void run(Request request, Response response, Callback releasing) {
            try {
                if (!getHandler().handle(request, response, releasing)) {
                    JsonHandler.respond(request, response, releasing, () -> {
                        throw ApiException.notFound("no such endpoint");
                    });
                }
            } catch (Exception | Error e) {
                releasing.failed(e);
            }
        }
    }

    private void turnAway(Request request, Response response, Callback callback) {
        JsonHandler.respond(request, response, callback, Map.of("Retry-After", retryAfter), () -> {
            throw new ApiException(503, "too many heavy requests (trees, comparisons, timelines, method metrics):"
                    + " " + max + " run at once (" + ServerLimits.HEAVY_REQUESTS + "); retry after " + retryAfter
                    + " s");
        });
    }
}
