package io.cctflow.query;

import io.cctflow.core.Durations;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.maintenance.RetentionPolicy;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The typed configuration of the query service. Built from string key/values (command line,
 * standalone); every key has a default, and an unknown key or bad value fails at start-up with a
 * message naming it.
 *
 * @param bearerToken empty: reads need no token (the default, right for localhost); otherwise every
 *     request must send {@code Authorization: Bearer <token>} (this token or the write token)
 * @param writeToken the token writes (task definitions) need; distinct from {@code bearerToken}.
 *     Empty: writes need no token when {@code bearerToken} is empty too, and are refused otherwise
 * @param rollupInterval zero disables the roll-up and retention pass
 * @param windowCacheRows rows of decoded windows kept across requests; zero turns the cache off
 */
public record QueryServiceConfig(
        String bindAddress,
        int port,
        GraphStoreConfig graph,
        String bootstrapServers,
        String tasksTopic,
        String bearerToken,
        String writeToken,
        Duration maxRange,
        int maxWindows,
        int maxTreeNodes,
        int maxResults,
        int maxLoadedNodes,
        int pageSize,
        Duration rollupInterval,
        Duration rollupSettle,
        RetentionPolicy retention,
        int retentionBatch,
        long windowCacheRows) {

    public static final String BIND = "bind";
    public static final String PORT = "port";
    public static final String NEO4J_URI = "neo4j.uri";
    public static final String NEO4J_USER = "neo4j.user";
    public static final String NEO4J_PASSWORD = "neo4j.password";
    public static final String NEO4J_DATABASE = "neo4j.database";
    public static final String BOOTSTRAP_SERVERS = "kafka.bootstrap.servers";
    public static final String TASKS_TOPIC = "topic.tasks";
    public static final String AUTH_TOKEN = "auth.token";
    public static final String AUTH_WRITE_TOKEN = "auth.write-token";
    public static final String MAX_RANGE = "limits.max-range";
    public static final String MAX_WINDOWS = "limits.max-windows";
    public static final String MAX_TREE_NODES = "limits.max-tree-nodes";
    public static final String MAX_RESULTS = "limits.max-results";
    public static final String MAX_LOADED_NODES = "limits.max-loaded-nodes";
    public static final String PAGE_SIZE = "limits.page-size";
    public static final String ROLLUP_INTERVAL = "rollup.interval";
    public static final String ROLLUP_SETTLE = "rollup.settle";
    public static final String RETENTION_FINE = "retention.fine";
    public static final String RETENTION_HOUR = "retention.hour";
    public static final String RETENTION_DAY = "retention.day";
    public static final String RETENTION_BATCH = "retention.batch";
    public static final String CACHE_WINDOW_ROWS = "cache.window-rows";

    /** Every key with its default and meaning, in the order the README lists them. */
    public static final Map<String, String[]> KEYS = keys();

    private static Map<String, String[]> keys() {
        Map<String, String[]> k = new LinkedHashMap<>();
        k.put(BIND, new String[] {"127.0.0.1", "address the API listens on; 0.0.0.0 for every interface (set auth.token then)"});
        k.put(PORT, new String[] {"8080", "port of the API; 0 picks a free one"});
        k.put(NEO4J_URI, new String[] {"bolt://localhost:7687", "Neo4j Bolt URI"});
        k.put(NEO4J_USER, new String[] {"", "Neo4j user; empty for no authentication"});
        k.put(NEO4J_PASSWORD, new String[] {"", "Neo4j password"});
        k.put(NEO4J_DATABASE, new String[] {"", "Neo4j database; empty for the default"});
        k.put(BOOTSTRAP_SERVERS, new String[] {"localhost:9092", "Kafka bootstrap servers, for publishing task definitions"});
        k.put(TASKS_TOPIC, new String[] {"cctflow.tasks", "compacted topic of task definitions (the samples job's topic.tasks)"});
        k.put(AUTH_TOKEN, new String[] {"", "bearer token every request must carry (reads; /metrics included); empty: reads need no token"});
        k.put(AUTH_WRITE_TOKEN, new String[] {"", "bearer token of writes (task definitions), distinct from auth.token; it may read too. Empty: writes are refused when auth.token is set, open otherwise"});
        k.put(MAX_RANGE, new String[] {"366d", "longest time range one request may ask for"});
        k.put(MAX_WINDOWS, new String[] {"200000", "most stored windows (rows) one request may read; roll-ups keep long ranges small"});
        k.put(MAX_TREE_NODES, new String[] {"200000", "most nodes a tree response may hold after pruning"});
        k.put(MAX_RESULTS, new String[] {"10000", "most entries of a list in a response (callees, callers, threads, instances); the largest 'limit' of a listing page"});
        k.put(MAX_LOADED_NODES, new String[] {"2000000", "most distinct nodes the merged tree of one selection may have, checked before the tree is built"});
        k.put(PAGE_SIZE, new String[] {"100", "entries of a listing page (services, deployments, instances) when the request gives no 'limit'; capped at limits.max-results"});
        k.put(ROLLUP_INTERVAL, new String[] {"5m", "how often the roll-up and retention pass runs; 0 disables it"});
        k.put(ROLLUP_SETTLE, new String[] {"10m", "an hour is rolled up once it ended this long ago (more than the job's allowed-lateness)"});
        k.put(RETENTION_FINE, new String[] {"7d", "fine windows (the job's window) are kept this long"});
        k.put(RETENTION_HOUR, new String[] {"90d", "hourly roll-ups are kept this long"});
        k.put(RETENTION_DAY, new String[] {"730d", "daily roll-ups are kept this long"});
        k.put(RETENTION_BATCH, new String[] {"10000", "windows deleted per transaction by retention"});
        k.put(CACHE_WINDOW_ROWS, new String[] {"8000000", "rows (node, per-thread and per-method entries) of decoded stored windows kept in memory across requests, about 30 bytes each; windows written in the last minute are never kept, rewritten ones are read again; 0 turns the cache off"});
        return Collections.unmodifiableMap(k);
    }

    /** Every key at its default. */
    public static QueryServiceConfig defaults() {
        return from(Map.of());
    }

    /** Parses a configuration; throws {@link IllegalArgumentException} naming the first bad key. */
    public static QueryServiceConfig from(Map<String, String> values) {
        Set<String> unknown = new TreeSet<>(values.keySet());
        unknown.removeAll(KEYS.keySet());
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown query-service configuration key(s) " + unknown
                    + "; known keys: " + KEYS.keySet());
        }
        Function<String, String> get = key -> values.getOrDefault(key, KEYS.get(key)[0]);
        return new QueryServiceConfig(
                nonBlank(BIND, get.apply(BIND)),
                intIn(PORT, get.apply(PORT), 0, 65535),
                new GraphStoreConfig(nonBlank(NEO4J_URI, get.apply(NEO4J_URI)), get.apply(NEO4J_USER),
                        get.apply(NEO4J_PASSWORD), get.apply(NEO4J_DATABASE)),
                nonBlank(BOOTSTRAP_SERVERS, get.apply(BOOTSTRAP_SERVERS)),
                nonBlank(TASKS_TOPIC, get.apply(TASKS_TOPIC)),
                get.apply(AUTH_TOKEN).trim(),
                writeToken(get.apply(AUTH_WRITE_TOKEN).trim(), get.apply(AUTH_TOKEN).trim()),
                duration(MAX_RANGE, get.apply(MAX_RANGE), false),
                intIn(MAX_WINDOWS, get.apply(MAX_WINDOWS), 1, Integer.MAX_VALUE),
                intIn(MAX_TREE_NODES, get.apply(MAX_TREE_NODES), 1, Integer.MAX_VALUE),
                intIn(MAX_RESULTS, get.apply(MAX_RESULTS), 1, Integer.MAX_VALUE),
                intIn(MAX_LOADED_NODES, get.apply(MAX_LOADED_NODES), 1, Integer.MAX_VALUE),
                intIn(PAGE_SIZE, get.apply(PAGE_SIZE), 1, Integer.MAX_VALUE),
                duration(ROLLUP_INTERVAL, get.apply(ROLLUP_INTERVAL), true),
                duration(ROLLUP_SETTLE, get.apply(ROLLUP_SETTLE), true),
                new RetentionPolicy(duration(RETENTION_FINE, get.apply(RETENTION_FINE), false),
                        duration(RETENTION_HOUR, get.apply(RETENTION_HOUR), false),
                        duration(RETENTION_DAY, get.apply(RETENTION_DAY), false)),
                intIn(RETENTION_BATCH, get.apply(RETENTION_BATCH), 1, 1_000_000),
                intIn(CACHE_WINDOW_ROWS, get.apply(CACHE_WINDOW_ROWS), 0, Integer.MAX_VALUE));
    }

    /** A copy with other values for some keys. */
    public QueryServiceConfig with(Map<String, String> overrides) {
        Map<String, String> all = new LinkedHashMap<>(asMap());
        all.putAll(overrides);
        return from(all);
    }

    /** Every key with its value. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(BIND, bindAddress);
        m.put(PORT, Integer.toString(port));
        m.put(NEO4J_URI, graph.uri());
        m.put(NEO4J_USER, graph.user());
        m.put(NEO4J_PASSWORD, graph.password());
        m.put(NEO4J_DATABASE, graph.database());
        m.put(BOOTSTRAP_SERVERS, bootstrapServers);
        m.put(TASKS_TOPIC, tasksTopic);
        m.put(AUTH_TOKEN, bearerToken);
        m.put(AUTH_WRITE_TOKEN, writeToken);
        m.put(MAX_RANGE, maxRange.toString());
        m.put(MAX_WINDOWS, Integer.toString(maxWindows));
        m.put(MAX_TREE_NODES, Integer.toString(maxTreeNodes));
        m.put(MAX_RESULTS, Integer.toString(maxResults));
        m.put(MAX_LOADED_NODES, Integer.toString(maxLoadedNodes));
        m.put(PAGE_SIZE, Integer.toString(pageSize));
        m.put(ROLLUP_INTERVAL, rollupInterval.toString());
        m.put(ROLLUP_SETTLE, rollupSettle.toString());
        m.put(RETENTION_FINE, retention.fine().toString());
        m.put(RETENTION_HOUR, retention.hour().toString());
        m.put(RETENTION_DAY, retention.day().toString());
        m.put(RETENTION_BATCH, Integer.toString(retentionBatch));
        m.put(CACHE_WINDOW_ROWS, Long.toString(windowCacheRows));
        return m;
    }

    private static String writeToken(String write, String read) {
        if (!write.isEmpty() && write.equals(read)) {
            throw new IllegalArgumentException(AUTH_WRITE_TOKEN + " must differ from " + AUTH_TOKEN
                    + ": whoever may read could otherwise write");
        }
        return write;
    }

    private static String nonBlank(String key, String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException(key + " must not be empty");
        }
        return value.trim();
    }

    private static int intIn(String key, String value, int min, int max) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below says what is wanted
        }
        throw new IllegalArgumentException(key + " must be a whole number in " + min + ".." + max + ", got '" + value + "'");
    }

    private static Duration duration(String key, String value, boolean zeroAllowed) {
        Duration d;
        try {
            d = Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage());
        }
        if (d.isNegative() || (!zeroAllowed && d.isZero())) {
            throw new IllegalArgumentException(key + " must be " + (zeroAllowed ? ">= 0" : "> 0") + ", got '"
                    + value.toLowerCase(Locale.ROOT) + "'");
        }
        return d;
    }
}
