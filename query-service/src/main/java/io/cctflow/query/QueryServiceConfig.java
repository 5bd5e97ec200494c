package io.cctflow.query;

import io.cctflow.core.config.Config;
import io.cctflow.core.config.ConfigDef;
import io.cctflow.core.config.ConfigKey;
import io.cctflow.core.config.ValueParsers;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.GraphStoreKeys;
import io.cctflow.graph.Keys;
import io.cctflow.graph.maintenance.RetentionPolicy;
import io.cctflow.graph.maintenance.Rollups;
import io.cctflow.query.http.ServerLimits;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The typed configuration of the query service. Built from string key/values (command line, a
 * properties file and the environment through {@link io.cctflow.core.config.ConfigSources},
 * standalone); every key is a {@link ConfigKey} with a default, and an unknown key or bad value fails at start-up with a
 * message naming it.
 *
 * @param bearerToken empty: reads need no token (the default, right for localhost); otherwise every
 *     request must send {@code Authorization: Bearer <token>} (this token or the write token)
 * @param writeToken the token writes (task definitions) need; distinct from {@code bearerToken}.
 *     Empty: writes need no token when {@code bearerToken} is empty too, and are refused otherwise
 * @param rollupInterval zero disables the roll-up and retention pass
 * @param instanceGroups instance groups per deployment the roll-up pass sums, and a comparison reads
 *     as its replicates ({@link io.cctflow.graph.Keys#instanceGroup})
 * @param windowCacheRows rows of decoded windows kept across requests; zero turns the cache off
 * @param treeCacheNodes weight (nodes and per-thread entries) of loaded trees kept across requests;
 *     zero turns the cache off
 * @param treeAnswerBytes bytes of finished tree answers ({@code GET /api/v1/tree}) kept across
 *     requests; zero turns the cache off
 * @param server the HTTP server's threads, timeouts and cap on heavy requests, and the Neo4j
 *     transaction timeout of reads
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
        Duration rollupMinuteSettle,
        int instanceGroups,
        RetentionPolicy retention,
        int retentionBatch,
        long windowCacheRows,
        long treeCacheNodes,
        long treeAnswerBytes,
        ServerLimits server) {

    public static final String BIND = "bind";
    public static final String PORT = "port";
    public static final String NEO4J_URI = GraphStoreKeys.URI.name();
    public static final String NEO4J_USER = GraphStoreKeys.USER.name();
    public static final String NEO4J_PASSWORD = GraphStoreKeys.PASSWORD.name();
    public static final String NEO4J_DATABASE = GraphStoreKeys.DATABASE.name();
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
    public static final String ROLLUP_MINUTE_SETTLE = "rollup.minute-settle";
    public static final String ROLLUP_INSTANCE_GROUPS = "rollup.instance-groups";
    public static final String RETENTION_FINE = "retention.fine";
    public static final String RETENTION_HOUR = "retention.hour";
    public static final String RETENTION_DAY = "retention.day";
    public static final String RETENTION_BATCH = "retention.batch";
    public static final String CACHE_WINDOW_ROWS = "cache.window-rows";
    public static final String CACHE_TREE_NODES = "cache.tree-nodes";
    public static final String CACHE_TREE_ANSWER_BYTES = "cache.tree-answer-bytes";

    private static final ConfigKey<String> BIND_KEY = ConfigKey.of(BIND, ValueParsers.nonEmpty(), "127.0.0.1",
            "address the API listens on; 0.0.0.0 for every interface (set auth.token then)");
    private static final ConfigKey<Integer> PORT_KEY = ConfigKey.of(PORT, ValueParsers.integer(0, 65535), "8080",
            "port of the API; 0 picks a free one");
    private static final ConfigKey<String> BOOTSTRAP_SERVERS_KEY = ConfigKey.of(BOOTSTRAP_SERVERS,
            ValueParsers.nonEmpty(), "localhost:9092", "Kafka bootstrap servers, for publishing task definitions");
    private static final ConfigKey<String> TASKS_TOPIC_KEY = ConfigKey.of(TASKS_TOPIC, ValueParsers.nonEmpty(),
            "cctflow.tasks", "compacted topic of task definitions (the samples job's topic.tasks)");
    private static final ConfigKey<String> AUTH_TOKEN_KEY = ConfigKey.of(AUTH_TOKEN, ValueParsers.text(), "",
            "bearer token every request must carry (reads; /metrics included); empty: reads need no token");
    private static final ConfigKey<String> AUTH_WRITE_TOKEN_KEY = ConfigKey.of(AUTH_WRITE_TOKEN, ValueParsers.text(), "",
            "bearer token of writes (task definitions), distinct from auth.token; it may read too. Empty: writes are refused when auth.token is set, open otherwise");
    private static final ConfigKey<Duration> MAX_RANGE_KEY = ConfigKey.of(MAX_RANGE, ValueParsers.positiveDuration(),
            "366d", "longest time range one request may ask for");
    private static final ConfigKey<Integer> MAX_WINDOWS_KEY = ConfigKey.of(MAX_WINDOWS,
            ValueParsers.integer(1, Integer.MAX_VALUE), "200000",
            "most stored windows (rows) one request may read; roll-ups keep long ranges small");
    private static final ConfigKey<Integer> MAX_TREE_NODES_KEY = ConfigKey.of(MAX_TREE_NODES,
            ValueParsers.integer(1, Integer.MAX_VALUE), "200000", "most nodes a tree response may hold after pruning");
    private static final ConfigKey<Integer> MAX_RESULTS_KEY = ConfigKey.of(MAX_RESULTS,
            ValueParsers.integer(1, Integer.MAX_VALUE), "10000",
            "most entries of a list in a response (callees, callers, threads, instances); the largest 'limit' of a listing page");
    private static final ConfigKey<Integer> MAX_LOADED_NODES_KEY = ConfigKey.of(MAX_LOADED_NODES,
            ValueParsers.integer(1, Integer.MAX_VALUE), "2000000",
            "most distinct nodes the merged tree of one selection may have, checked before the tree is built");
    private static final ConfigKey<Integer> PAGE_SIZE_KEY = ConfigKey.of(PAGE_SIZE,
            ValueParsers.integer(1, Integer.MAX_VALUE), "100",
            "entries of a listing page (services, deployments, instances) when the request gives no 'limit'; capped at limits.max-results");
    private static final ConfigKey<Duration> ROLLUP_INTERVAL_KEY = ConfigKey.of(ROLLUP_INTERVAL,
            ValueParsers.nonNegativeDuration(), "1m", "how often each replica tries the roll-up and retention pass; the one holding the lease in Neo4j (ttl three intervals, at least 15 min) runs it; a read ending now reads fine windows of up to one interval and the current minute; 0 disables it");
    private static final ConfigKey<Duration> ROLLUP_SETTLE_KEY = ConfigKey.of(ROLLUP_SETTLE,
            ValueParsers.nonNegativeDuration(), "10m",
            "an hour is rolled up once it ended this long ago, and so is each ten-minute slot of the current hour (its deployments' and instance groups' sums) (most batches have arrived by then; a later one is merged into the roll-up by the next pass)");
    private static final ConfigKey<Duration> ROLLUP_MINUTE_SETTLE_KEY = ConfigKey.of(ROLLUP_MINUTE_SETTLE,
            ValueParsers.nonNegativeDuration(), Rollups.DEFAULT_MINUTE_SETTLE.toMinutes() + "m",
            "each minute of the ten-minute slot not settled yet gets its deployments' and instance groups' minute sums once it ended this long ago (before that, once it ended, provisional ones that a read checks against the fine windows it lists, graph-store README), so a read ending now reads fine windows of up to one rollup.interval and the current minute only (the samples job takes a batch of any age into its window; at 1,000 busy instances batches were queryable within ~50 s at the p99, so 2 min leaves a margin; a later batch makes the next pass sum its minute again); at or above rollup.settle, minutes wait for their slot");
    private static final ConfigKey<Integer> ROLLUP_INSTANCE_GROUPS_KEY = ConfigKey.of(ROLLUP_INSTANCE_GROUPS,
            ValueParsers.integer(1, Keys.MAX_INSTANCE_GROUPS), Integer.toString(Keys.DEFAULT_INSTANCE_GROUPS),
            "the roll-up pass also sums each deployment's instances in this many groups (by a stable hash of the instance's key), and a comparison of whole deployments over rolled-up hours takes the groups as its replicates, so what differs between JVMs stays in its noise; each group of two instances or more adds its own hourly, daily, ten-minute and minute sums. Changing it leaves the sums made under the old value unread (hours rolled up again get new hourly and daily ones, and new ten-minute and minute ones where a late window lands)");
    private static final ConfigKey<Duration> RETENTION_FINE_KEY = ConfigKey.of(RETENTION_FINE,
            ValueParsers.positiveDuration(), days(RetentionPolicy.DEFAULT.fine()),
            "fine windows (the job's window) and the ten-minute roll-ups of deployments are kept this long");
    private static final ConfigKey<Duration> RETENTION_HOUR_KEY = ConfigKey.of(RETENTION_HOUR,
            ValueParsers.positiveDuration(), days(RetentionPolicy.DEFAULT.hour()),
            "hourly roll-ups (of instances and of deployments) are kept this long");
    private static final ConfigKey<Duration> RETENTION_DAY_KEY = ConfigKey.of(RETENTION_DAY,
            ValueParsers.positiveDuration(), days(RetentionPolicy.DEFAULT.day()),
            "daily roll-ups (of instances and of deployments) are kept this long");
    private static final ConfigKey<Integer> RETENTION_BATCH_KEY = ConfigKey.of(RETENTION_BATCH,
            ValueParsers.integer(1, 1_000_000), "10000", "windows deleted per transaction by retention");
    private static final ConfigKey<Integer> CACHE_WINDOW_ROWS_KEY = ConfigKey.of(CACHE_WINDOW_ROWS,
            ValueParsers.integer(0, Integer.MAX_VALUE), "8000000",
            "rows (node, per-thread and per-method entries) of decoded stored windows kept in memory across requests, about 30 bytes each; windows written in the last minute are never kept, rewritten ones are read again; 0 turns the cache off");
    private static final ConfigKey<Integer> CACHE_TREE_NODES_KEY = ConfigKey.of(CACHE_TREE_NODES,
            ValueParsers.integer(0, Integer.MAX_VALUE), "1000000",
            "nodes (and per-thread entries) of loaded trees kept in memory across requests, about 100 bytes each, so a repeated or re-queried view does not read its tree again; keyed by the versions of the windows read, so a new or rewritten window loads the tree again, and trees with a window written in the last minute are never kept; 0 turns the cache off");
    private static final ConfigKey<Integer> CACHE_TREE_ANSWER_BYTES_KEY = ConfigKey.of(CACHE_TREE_ANSWER_BYTES,
            ValueParsers.integer(0, Integer.MAX_VALUE), "67108864",
            "bytes of finished answers of /api/v1/tree (as rendered plus their gzip) kept in memory across requests, so a repeated view (reload, shared link, going back) is sent without listing, pruning, naming, rendering or gzip; keyed like cache.tree-nodes plus every parameter of the request (and the task labels' version with `task`); answers with a migration or a method missing from the catalogue are never kept; 0 turns the cache off");

    /** Every key with its default and meaning, in the order the README lists them. */
    public static final ConfigDef KEYS = ConfigDef.builder("query-service configuration")
            .define(BIND_KEY, PORT_KEY).define(GraphStoreKeys.ALL)
            .define(BOOTSTRAP_SERVERS_KEY, TASKS_TOPIC_KEY, AUTH_TOKEN_KEY, AUTH_WRITE_TOKEN_KEY, MAX_RANGE_KEY,
                    MAX_WINDOWS_KEY, MAX_TREE_NODES_KEY, MAX_RESULTS_KEY, MAX_LOADED_NODES_KEY, PAGE_SIZE_KEY,
                    ROLLUP_INTERVAL_KEY, ROLLUP_SETTLE_KEY, ROLLUP_MINUTE_SETTLE_KEY, ROLLUP_INSTANCE_GROUPS_KEY, RETENTION_FINE_KEY, RETENTION_HOUR_KEY, RETENTION_DAY_KEY,
                    RETENTION_BATCH_KEY, CACHE_WINDOW_ROWS_KEY, CACHE_TREE_NODES_KEY,
                    CACHE_TREE_ANSWER_BYTES_KEY)
            .define(ServerLimits.KEYS)
            .build();

    /** Every key at its default. */
    public static QueryServiceConfig defaults() {
        return from(Map.of());
    }

    /** Parses a configuration; throws {@link IllegalArgumentException} naming the first bad key. */
    public static QueryServiceConfig from(Map<String, String> values) {
        Config c = KEYS.parse(values);
        return new QueryServiceConfig(c.get(BIND_KEY), c.get(PORT_KEY), GraphStoreKeys.graphOf(c),
                c.get(BOOTSTRAP_SERVERS_KEY), c.get(TASKS_TOPIC_KEY), c.get(AUTH_TOKEN_KEY).trim(),
                writeToken(c.get(AUTH_WRITE_TOKEN_KEY).trim(), c.get(AUTH_TOKEN_KEY).trim()), c.get(MAX_RANGE_KEY),
                c.get(MAX_WINDOWS_KEY), c.get(MAX_TREE_NODES_KEY), c.get(MAX_RESULTS_KEY), c.get(MAX_LOADED_NODES_KEY),
                c.get(PAGE_SIZE_KEY), c.get(ROLLUP_INTERVAL_KEY), c.get(ROLLUP_SETTLE_KEY),
                c.get(ROLLUP_MINUTE_SETTLE_KEY), c.get(ROLLUP_INSTANCE_GROUPS_KEY),
                new RetentionPolicy(c.get(RETENTION_FINE_KEY), c.get(RETENTION_HOUR_KEY), c.get(RETENTION_DAY_KEY)),
                c.get(RETENTION_BATCH_KEY), c.get(CACHE_WINDOW_ROWS_KEY), c.get(CACHE_TREE_NODES_KEY),
                c.get(CACHE_TREE_ANSWER_BYTES_KEY), ServerLimits.of(c));
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
        m.put(ROLLUP_MINUTE_SETTLE, rollupMinuteSettle.toString());
        m.put(ROLLUP_INSTANCE_GROUPS, Integer.toString(instanceGroups));
        m.put(RETENTION_FINE, retention.fine().toString());
        m.put(RETENTION_HOUR, retention.hour().toString());
        m.put(RETENTION_DAY, retention.day().toString());
        m.put(RETENTION_BATCH, Integer.toString(retentionBatch));
        m.put(CACHE_WINDOW_ROWS, Long.toString(windowCacheRows));
        m.put(CACHE_TREE_NODES, Long.toString(treeCacheNodes));
        m.put(CACHE_TREE_ANSWER_BYTES, Long.toString(treeAnswerBytes));
        m.putAll(server.asMap());
        return m;
    }

    private static String writeToken(String write, String read) {
        if (!write.isEmpty() && write.equals(read)) {
            throw new IllegalArgumentException(AUTH_WRITE_TOKEN + " must differ from " + AUTH_TOKEN
                    + ": whoever may read could otherwise write");
        }
        return write;
    }

    /** A whole number of days as a default value ("14d"): the retention defaults live in {@link RetentionPolicy#DEFAULT}. */
    private static String days(Duration d) {
        return d.toDays() + "d";
    }
}
