package io.cctflow.flink;

import io.cctflow.core.config.Config;
import io.cctflow.core.config.ConfigDef;
import io.cctflow.core.config.ConfigKey;
import io.cctflow.core.config.ConfigSources;
import io.cctflow.core.config.ValueParsers;
import io.cctflow.flink.sink.Neo4jRetry;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.GraphStoreKeys;
import io.cctflow.graph.read.WindowReader;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The typed configuration of the samples job. Built from string key/values (command line, a
 * properties file, the environment, the standalone launcher; see {@link #fromCommandLine}); every
 * key is a {@link ConfigKey} with a default, and a bad or unknown key fails at start-up with a
 * message that names it.
 */
public record SamplesJobConfig(
        String bootstrapServers,
        String samplesTopic,
        String tasksTopic,
        String manifestsTopic,
        String deadLetterTopic,
        String groupId,
        Duration window,
        Duration checkpointInterval,
        String checkpointDir,
        String stateBackend,
        int parallelism,
        int matchThreshold,
        int maxPendingStacks,
        Duration maxPendingAge,
        int treeCacheSize,
        int topologyRecentIds,
        int windowsRecentMib,
        GraphStoreConfig graph,
        Neo4jRetry neo4jRetry,
        boolean bounded) {

    public static final String BOOTSTRAP_SERVERS = "kafka.bootstrap.servers";
    public static final String SAMPLES_TOPIC = "topic.samples";
    public static final String TASKS_TOPIC = "topic.tasks";
    public static final String MANIFESTS_TOPIC = "topic.manifests";
    public static final String DEAD_LETTER_TOPIC = "topic.dead-letters";
    public static final String GROUP_ID = "kafka.group.id";
    public static final String WINDOW = "window";
    public static final String CHECKPOINT_INTERVAL = "checkpoint.interval";
    public static final String CHECKPOINT_DIR = "checkpoint.dir";
    public static final String STATE_BACKEND = "state.backend";
    public static final String PARALLELISM = "parallelism";
    public static final String MATCH_THRESHOLD = "truncated.match-threshold";
    public static final String MAX_PENDING = "truncated.max-pending";
    public static final String MAX_PENDING_AGE = "truncated.max-age";
    public static final String TREE_CACHE = "tree-cache.size";
    public static final String TOPOLOGY_RECENT_IDS = "topology.recent-ids";
    public static final String WINDOWS_RECENT_MIB = "windows.recent-mib";
    public static final String NEO4J_URI = GraphStoreKeys.URI.name();
    public static final String NEO4J_USER = GraphStoreKeys.USER.name();
    public static final String NEO4J_PASSWORD = GraphStoreKeys.PASSWORD.name();
    public static final String NEO4J_DATABASE = GraphStoreKeys.DATABASE.name();
    public static final String NEO4J_RETRY = "neo4j.retry.max-time";
    public static final String NEO4J_RETRY_MAX_DELAY = "neo4j.retry.max-delay";
    public static final String NEO4J_TRANSACTION_RETRY = "neo4j.retry.transaction-time";
    public static final String BOUNDED = "bounded";

    private static final ConfigKey<String> BOOTSTRAP_SERVERS_KEY = ConfigKey.of(BOOTSTRAP_SERVERS,
            ValueParsers.nonEmpty(), "localhost:9092", "Kafka bootstrap servers");
    private static final ConfigKey<String> SAMPLES_TOPIC_KEY = ConfigKey.of(SAMPLES_TOPIC,
            ValueParsers.nonEmpty(), "cctflow.samples", "topic the agents publish SampleBatches to");
    private static final ConfigKey<String> TASKS_TOPIC_KEY = ConfigKey.of(TASKS_TOPIC,
            ValueParsers.nonEmpty(), "cctflow.tasks", "compacted topic of task definitions (Avro `TaskDefinition` keyed by id; a tombstone deletes); created compacted if missing");
    private static final ConfigKey<String> MANIFESTS_TOPIC_KEY = ConfigKey.of(MANIFESTS_TOPIC,
            ValueParsers.text(), "cctflow.manifests", "topic the agents publish CodeManifests to; stored as the deployments' method fingerprints; empty: not read");
    private static final ConfigKey<String> DEAD_LETTER_TOPIC_KEY = ConfigKey.of(DEAD_LETTER_TOPIC,
            ValueParsers.nonEmpty(), "cctflow.samples.dlq", "topic for records that cannot be used; reason in header cctflow.error");
    private static final ConfigKey<String> GROUP_ID_KEY = ConfigKey.of(GROUP_ID,
            ValueParsers.nonEmpty(), "cctflow-samples-job", "Kafka consumer group");
    /**
     * The window: positive and at most {@link WindowReader#MAX_FINE_WINDOW_MILLIS} (the limit kept
     * as it was). Range reads no longer rely on it: the store records the longest fine window
     * written ({@code FineWindowBound}, graph-store), and reads look back that far for a window
     * reaching into a range (a minute at the default, not an hour).
     */
    private static final ConfigKey<Duration> WINDOW_KEY = ConfigKey.of(WINDOW,
            ValueParsers.positiveDuration().check(d -> d.toMillis() <= WindowReader.MAX_FINE_WINDOW_MILLIS,
                    "must be at most " + Duration.ofMillis(WindowReader.MAX_FINE_WINDOW_MILLIS).toMinutes()
                    + " minutes"),
            "1m", "event-time window of stored counts; at most 1 h; range reads look back as far as the longest window stored");
    private static final ConfigKey<Duration> CHECKPOINT_INTERVAL_KEY = ConfigKey.of(CHECKPOINT_INTERVAL,
            ValueParsers.positiveDuration(), "10s", "Flink checkpoint interval");
    private static final ConfigKey<String> CHECKPOINT_DIR_KEY = ConfigKey.of(CHECKPOINT_DIR,
            ValueParsers.text(), "", "checkpoint storage URI (file://, s3://, ...); empty: the Flink cluster's setting");
    private static final ConfigKey<String> STATE_BACKEND_KEY = ConfigKey.of(STATE_BACKEND,
            ValueParsers.oneOf("rocksdb", "hashmap"), "rocksdb", "rocksdb (production: state larger than memory, incremental checkpoints) or hashmap (tests, standalone)");
    private static final ConfigKey<Integer> PARALLELISM_KEY = ConfigKey.of(PARALLELISM,
            ValueParsers.integer(1, Integer.MAX_VALUE), "1", "operator parallelism");
    private static final ConfigKey<Integer> MATCH_THRESHOLD_KEY = ConfigKey.of(MATCH_THRESHOLD,
            ValueParsers.integer(0, Integer.MAX_VALUE), "2", "a truncated stack merges under a unique candidate only after more than this many frames matched (seed 002 Listing 3.2)");
    private static final ConfigKey<Integer> MAX_PENDING_KEY = ConfigKey.of(MAX_PENDING,
            ValueParsers.integer(1, Integer.MAX_VALUE), "1000", "truncated stacks without a candidate kept per instance for retry; beyond it the oldest expire");
    private static final ConfigKey<Duration> MAX_PENDING_AGE_KEY = ConfigKey.of(MAX_PENDING_AGE,
            ValueParsers.positiveDuration(), "10m", "a truncated stack still without a candidate after this long (processing time) expires");
    private static final ConfigKey<Integer> TREE_CACHE_KEY = ConfigKey.of(TREE_CACHE,
            ValueParsers.integer(1, Integer.MAX_VALUE), "1024", "instance trees kept in memory per subtask for truncated-stack merging; others are rebuilt from state on use");
    private static final ConfigKey<Integer> TOPOLOGY_RECENT_IDS_KEY = ConfigKey.of(TOPOLOGY_RECENT_IDS,
            ValueParsers.integer(0, Integer.MAX_VALUE), "250000", "node ids each topology writer remembers as written (two generations of this many, ~48 bytes each), so nodes other instances of a service already created are not written again; 0: write every node new to its instance");
    private static final ConfigKey<Integer> WINDOWS_RECENT_MIB_KEY = ConfigKey.of(WINDOWS_RECENT_MIB,
            ValueParsers.integer(0, 1 << 20), "64", "MiB of fine windows each window writer remembers as it last wrote them (packed: ~8 KB a busy instance's minute), so adding a batch to them needs no read of Neo4j; least recently written forgotten first; 0: read every window before adding to it");
    private static final ConfigKey<Duration> NEO4J_RETRY_KEY = ConfigKey.of(NEO4J_RETRY,
            ValueParsers.nonNegativeDuration(), "10m", "while Neo4j is unavailable, writes are retried (the job backpressured) this long before the job restarts from its last checkpoint");
    private static final ConfigKey<Duration> NEO4J_RETRY_MAX_DELAY_KEY = ConfigKey.of(NEO4J_RETRY_MAX_DELAY,
            ValueParsers.positiveDuration().check(d -> d.compareTo(Neo4jRetry.FIRST_DELAY) >= 0, "must be at least 200ms"),
            "15s", "longest wait between two tries of a write while Neo4j is unavailable (jittered exponential backoff from 200 ms)");
    private static final ConfigKey<Duration> NEO4J_TRANSACTION_RETRY_KEY = ConfigKey.of(NEO4J_TRANSACTION_RETRY,
            ValueParsers.nonNegativeDuration(), "30s", "how long the Neo4j driver retries one try's transaction (its own backoff from 1 s) before the job's sink counts a retry and waits");
    private static final ConfigKey<Boolean> BOUNDED_KEY = ConfigKey.of(BOUNDED,
            ValueParsers.bool(), "false", "stop at the end offsets present at start (tests, backfills)");

    /** Every key with its default and meaning, in the order the README lists them. */
    public static final ConfigDef KEYS = ConfigDef.builder("job configuration")
            .define(BOOTSTRAP_SERVERS_KEY, SAMPLES_TOPIC_KEY, TASKS_TOPIC_KEY, MANIFESTS_TOPIC_KEY, DEAD_LETTER_TOPIC_KEY,
                    GROUP_ID_KEY, WINDOW_KEY, CHECKPOINT_INTERVAL_KEY, CHECKPOINT_DIR_KEY, STATE_BACKEND_KEY, PARALLELISM_KEY, MATCH_THRESHOLD_KEY,
                    MAX_PENDING_KEY, MAX_PENDING_AGE_KEY, TREE_CACHE_KEY, TOPOLOGY_RECENT_IDS_KEY, WINDOWS_RECENT_MIB_KEY)
            .define(GraphStoreKeys.ALL)
            .define(NEO4J_RETRY_KEY, NEO4J_RETRY_MAX_DELAY_KEY, NEO4J_TRANSACTION_RETRY_KEY, BOUNDED_KEY)
            .build();

    /** The configuration with every key at its default. */
    public static SamplesJobConfig defaults() {
        return from(Map.of());
    }

    /**
     * Reads the job's {@code main} arguments ({@code --key value}, {@code --config FILE}) and the
     * {@code CCTFLOW_*} environment, as {@link ConfigSources#fromCommandLine} merges them.
     *
     * @throws IllegalArgumentException naming the first bad key
     */
    public static SamplesJobConfig fromCommandLine(String[] args, Function<String, String> environment) {
        return from(ConfigSources.fromCommandLine(KEYS, args, environment));
    }

    /** Parses a configuration; throws {@link IllegalArgumentException} naming the first bad key. */
    public static SamplesJobConfig from(Map<String, String> values) {
        Config c = KEYS.parse(values);
        return new SamplesJobConfig(c.get(BOOTSTRAP_SERVERS_KEY), c.get(SAMPLES_TOPIC_KEY), c.get(TASKS_TOPIC_KEY),
                c.get(MANIFESTS_TOPIC_KEY), c.get(DEAD_LETTER_TOPIC_KEY), c.get(GROUP_ID_KEY), c.get(WINDOW_KEY),
                c.get(CHECKPOINT_INTERVAL_KEY), c.get(CHECKPOINT_DIR_KEY), c.get(STATE_BACKEND_KEY),
                c.get(PARALLELISM_KEY), c.get(MATCH_THRESHOLD_KEY), c.get(MAX_PENDING_KEY), c.get(MAX_PENDING_AGE_KEY),
                c.get(TREE_CACHE_KEY), c.get(TOPOLOGY_RECENT_IDS_KEY), c.get(WINDOWS_RECENT_MIB_KEY), GraphStoreKeys.graphOf(c),
                new Neo4jRetry(c.get(NEO4J_RETRY_KEY), c.get(NEO4J_RETRY_MAX_DELAY_KEY), c.get(NEO4J_TRANSACTION_RETRY_KEY)),
                c.get(BOUNDED_KEY));
    }

    /** Returns a copy with other values for some keys. */
    public SamplesJobConfig with(Map<String, String> overrides) {
        Map<String, String> all = new LinkedHashMap<>(asMap());
        all.putAll(overrides);
        return from(all);
    }

    /** This configuration as key/values that {@link #from} reads back. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(BOOTSTRAP_SERVERS, bootstrapServers);
        m.put(SAMPLES_TOPIC, samplesTopic);
        m.put(TASKS_TOPIC, tasksTopic);
        m.put(MANIFESTS_TOPIC, manifestsTopic);
        m.put(DEAD_LETTER_TOPIC, deadLetterTopic);
        m.put(GROUP_ID, groupId);
        m.put(WINDOW, window.toMillis() + "ms");
        m.put(CHECKPOINT_INTERVAL, checkpointInterval.toMillis() + "ms");
        m.put(CHECKPOINT_DIR, checkpointDir);
        m.put(STATE_BACKEND, stateBackend);
        m.put(PARALLELISM, Integer.toString(parallelism));
        m.put(MATCH_THRESHOLD, Integer.toString(matchThreshold));
        m.put(MAX_PENDING, Integer.toString(maxPendingStacks));
        m.put(MAX_PENDING_AGE, maxPendingAge.toMillis() + "ms");
        m.put(TREE_CACHE, Integer.toString(treeCacheSize));
        m.put(TOPOLOGY_RECENT_IDS, Integer.toString(topologyRecentIds));
        m.put(WINDOWS_RECENT_MIB, Integer.toString(windowsRecentMib));
        m.put(NEO4J_URI, graph.uri());
        m.put(NEO4J_USER, graph.user());
        m.put(NEO4J_PASSWORD, graph.password());
        m.put(NEO4J_DATABASE, graph.database());
        m.put(NEO4J_RETRY, neo4jRetry.budget().toMillis() + "ms");
        m.put(NEO4J_RETRY_MAX_DELAY, neo4jRetry.maxDelay().toMillis() + "ms");
        m.put(NEO4J_TRANSACTION_RETRY, neo4jRetry.transactionTime().toMillis() + "ms");
        m.put(BOUNDED, Boolean.toString(bounded));
        return m;
    }
}
