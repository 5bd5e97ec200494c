package io.cctflow.query.http;

import org.eclipse.jetty.util.Callback;

/** Callback helpers Jetty's {@link Callback} lacks. */
final class Callbacks {
    private Callbacks() {
    }

    /**
     * {@code callback}, with {@code first} run before it completes either way (Jetty's {@code
     * Callback.from(Callback, Runnable)} runs it after, too late to free a slot the client's
     * next request may want).
     */
    static Callback runningFirst(Callback callback, Runnable first) {
        return new Callback() {
            @Override
            public void succeeded() {
                first.run();
                callback.succeeded();
            }

            @Override
            public void failed(Throwable x) {
                first.run();
                callback.failed(x);
            }

            @Override
            public InvocationType getInvocationType() {
                return callback.getInvocationType();
            }
        };
    }
}
