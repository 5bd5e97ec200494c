package io.cctflow.query.http;

import io.cctflow.core.config.Config;
import io.cctflow.core.config.ConfigKey;
import io.cctflow.core.config.ValueParsers;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How much work the API takes on at once and for how long: its request threads and their queue,
 * timeouts, and the cap on heavy requests (trees, comparisons). Keys of the query service's
 * configuration ({@link #KEYS}).
 *
 * @param threads Jetty's request threads (its acceptor and selector threads included)
 * @param maxConnections connections served at once, which bounds the requests waiting for a
 *     thread; beyond it Jetty stops accepting until one closes
 * @param idleTimeout a connection idle this long is closed
 * @param requestTimeout a request not answered by then gets 503
 * @param heavyRequests heavy requests running at once, on their own threads; more get 503
 * @param retryAfter the {@code Retry-After} of a heavy request turned away
 * @param transactionTimeout Neo4j ends a read transaction running longer
 */
public record ServerLimits(int threads, int maxConnections, Duration idleTimeout, Duration requestTimeout,
        int heavyRequests, Duration retryAfter, Duration transactionTimeout) {

    public static final String THREADS = "http.threads";
    public static final String MAX_CONNECTIONS = "http.max-connections";
    public static final String IDLE_TIMEOUT = "http.idle-timeout";
    public static final String REQUEST_TIMEOUT = "http.request-timeout";
    public static final String HEAVY_REQUESTS = "http.heavy-requests";
    public static final String RETRY_AFTER = "http.retry-after";
    public static final String TRANSACTION_TIMEOUT = "neo4j.transaction-timeout";

    /** Fewest request threads: Jetty takes an acceptor and selectors from the same pool. */
    static final int MIN_THREADS = 8;

    private static final ConfigKey<Integer> THREADS_KEY = ConfigKey.of(THREADS,
            ValueParsers.integer(MIN_THREADS, 10_000), "32",
            "most request threads (Jetty's acceptor and selector threads included); heavy requests run on threads of their own");
    private static final ConfigKey<Integer> MAX_CONNECTIONS_KEY = ConfigKey.of(MAX_CONNECTIONS,
            ValueParsers.integer(1, 1_000_000), "512",
            "connections served at once, which bounds the requests waiting for a request thread; beyond it new connections wait in the operating system's backlog until one closes");
    private static final ConfigKey<Duration> IDLE_TIMEOUT_KEY = ConfigKey.of(IDLE_TIMEOUT,
            ValueParsers.positiveDuration(), "30s", "a connection idle (nothing read or written) this long is closed");
    private static final ConfigKey<Duration> REQUEST_TIMEOUT_KEY = ConfigKey.of(REQUEST_TIMEOUT,
            ValueParsers.positiveDuration(), "120s",
            "a request not answered by then gets 503 naming this key (its work stops at the next Neo4j read's timeout)");
    private static final ConfigKey<Integer> HEAVY_REQUESTS_KEY = ConfigKey.of(HEAVY_REQUESTS,
            ValueParsers.integer(1, 1_000), "4",
            "heavy requests (tree, compare, timeline, metrics/top, metrics/method) running at once, each on a thread of its own; more get 503 with Retry-After, and /metrics, /healthz, /readyz never wait behind them");
    private static final ConfigKey<Duration> RETRY_AFTER_KEY = ConfigKey.of(RETRY_AFTER,
            ValueParsers.positiveDuration(), "5s", "the Retry-After (whole seconds, rounded up) of a heavy request turned away");
    private static final ConfigKey<Duration> TRANSACTION_TIMEOUT_KEY = ConfigKey.of(TRANSACTION_TIMEOUT,
            ValueParsers.positiveDuration(), "60s",
            "Neo4j ends a read transaction of a request running longer (the driver's transaction timeout); the request gets 503 naming this key");

    /** The keys, in docs order. */
    public static final List<ConfigKey<?>> KEYS = List.of(THREADS_KEY, MAX_CONNECTIONS_KEY, IDLE_TIMEOUT_KEY,
            REQUEST_TIMEOUT_KEY, HEAVY_REQUESTS_KEY, RETRY_AFTER_KEY, TRANSACTION_TIMEOUT_KEY);

    /** The limits of a parsed configuration that defines {@link #KEYS}. */
    public static ServerLimits of(Config c) {
        return new ServerLimits(c.get(THREADS_KEY), c.get(MAX_CONNECTIONS_KEY), c.get(IDLE_TIMEOUT_KEY),
                c.get(REQUEST_TIMEOUT_KEY), c.get(HEAVY_REQUESTS_KEY), c.get(RETRY_AFTER_KEY),
                c.get(TRANSACTION_TIMEOUT_KEY));
    }

    /** Every key at its default. */
    public static ServerLimits defaults() {
        return new ServerLimits(THREADS_KEY.defaultValue(), MAX_CONNECTIONS_KEY.defaultValue(), IDLE_TIMEOUT_KEY.defaultValue(),
                REQUEST_TIMEOUT_KEY.defaultValue(), HEAVY_REQUESTS_KEY.defaultValue(), RETRY_AFTER_KEY.defaultValue(),
                TRANSACTION_TIMEOUT_KEY.defaultValue());
    }

    /** Every key with its value. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(THREADS, Integer.toString(threads));
        m.put(MAX_CONNECTIONS, Integer.toString(maxConnections));
        m.put(IDLE_TIMEOUT, idleTimeout.toString());
        m.put(REQUEST_TIMEOUT, requestTimeout.toString());
        m.put(HEAVY_REQUESTS, Integer.toString(heavyRequests));
        m.put(RETRY_AFTER, retryAfter.toString());
        m.put(TRANSACTION_TIMEOUT, transactionTimeout.toString());
        return m;
    }

    /** {@link #retryAfter} as the header wants it: whole seconds, at least one. */
    String retryAfterSeconds() {
        return Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000));
    }
}
