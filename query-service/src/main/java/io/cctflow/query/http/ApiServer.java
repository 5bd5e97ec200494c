package io.cctflow.query.http;

import java.io.IOException;
import org.eclipse.jetty.http.pathmap.ServletPathSpec;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.PathMappingsHandler;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;
import org.eclipse.jetty.util.compression.CompressionPool;
import org.eclipse.jetty.util.compression.DeflaterPool;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The embedded HTTP server of the API (Jetty 12, core Handler API), within {@link ServerLimits}:
 * request threads whose queue is bounded by a connection limit, idle and request timeouts
 * ({@link RequestDeadline}), heavy requests capped on threads of their own ({@link
 * HeavyRequests}), gzip for clients that accept it, Jetty's own errors as JSON ({@link JsonErrors}). Routes are added before {@link #start}; a route serves its path and the paths below it.
 */
public final class ApiServer implements AutoCloseable {
    private final Server server;
    private final ServerConnector connector;
    private final PathMappingsHandler routes = new PathMappingsHandler();
    private final HeavyRequests heavy;

    /** A server for {@code host:port} (port 0 picks a free one); nothing listens before {@link #start}. */
    public ApiServer(String host, int port, ServerLimits limits) {
        // the queue of waiting requests is bounded by the connection limit below, as Jetty advises
        // (12.1 warns that a bounded thread-pool queue rejects its own internal tasks when full)
        QueuedThreadPool threads = new QueuedThreadPool(limits.threads(), Math.min(4, limits.threads()), 60_000);
        threads.setName("cctflow-http");
        threads.setDaemon(true);
        server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(limits.idleTimeout().toMillis());
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(limits.maxConnections(), server));
        heavy = new HeavyRequests(limits);
        server.setHandler(gzip(new RequestDeadline(server.getScheduler(), limits.requestTimeout(), routes)));
        server.setErrorHandler(new JsonErrors());
        server.setStopTimeout(0); // close() stops at once, as the JDK server's stop(0) did
    }

    /**
     * Gzip for clients that send {@code Accept-Encoding: gzip}, at the fastest level: a flame graph's
     * 4.5 MB tree took 720-1,486 ms to deflate at Jetty's default level 6 and 46-131 ms at level 1
     * (9 % larger) on this machine at load 12-15. Jetty 12.1 marks {@link GzipHandler} for removal in
     * favour of its jetty-compression modules (not yet among the versions known to work here); it is
     * still part of jetty-server 12.1.
     */
    @SuppressWarnings("removal")
    private static Handler gzip(Handler next) {
        GzipHandler gzip = new GzipHandler(next);
        gzip.setDeflaterPool(new DeflaterPool(CompressionPool.DEFAULT_CAPACITY, GzipBodies.LEVEL, true));
        return gzip;
    }

    /** Serves {@code path} and the paths below it with {@code handler}. */
    public void route(String path, Handler handler) {
        routes.addMapping(new ServletPathSpec(path.equals("/") ? "/" : path + "/*"), handler);
    }

    /** {@code handler} behind the cap on heavy requests, for {@link #route}. */
    public Handler heavy(Handler handler) {
        return heavy.limit(handler);
    }

    /**
     * Starts listening.
     *
     * @throws IOException when the address cannot be bound, naming it
     */
    public void start() throws IOException {
        try {
            server.start();
        } catch (Exception e) {
            close();
            throw new IOException("cannot listen on " + connector.getHost() + ":" + connector.getPort() + " ("
                    + e.getMessage() + "); choose another port", e);
        }
    }

    /** The port listened on. */
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("cannot stop the HTTP server: " + e.getMessage(), e);
        } finally {
            heavy.close();
        }
    }
}
