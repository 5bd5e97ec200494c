package io.cctflow.flink;

import io.cctflow.core.Durations;
import io.cctflow.graph.read.WindowReader;
import io.cctflow.graph.GraphStoreConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The typed configuration of the samples job. Built from string key/values (command line, a
 * properties file, the standalone launcher); every key has a default, and a bad or unknown key
 * fails at start-up with a message that names it.
 */
public record SamplesJobConfig(
        String bootstrapServers,
        String samplesTopic,
        String tasksTopic,
        String manifestsTopic,
        String deadLetterTopic,
        String groupId,
        Duration window,
        Duration outOfOrderness,
        Duration allowedLateness,
        Duration idleness,
        Duration earlyFiring,
        Duration checkpointInterval,
        String checkpointDir,
        String stateBackend,
        int parallelism,
        int matchThreshold,
        int maxPendingStacks,
        Duration maxPendingAge,
        int treeCacheSize,
        int topologyRecentIds,
        GraphStoreConfig graph,
        Duration neo4jRetryBudget,
        boolean bounded) {

    public static final String BOOTSTRAP_SERVERS = "kafka.bootstrap.servers";
    public static final String SAMPLES_TOPIC = "topic.samples";
    public static final String TASKS_TOPIC = "topic.tasks";
    public static final String MANIFESTS_TOPIC = "topic.manifests";
    public static final String DEAD_LETTER_TOPIC = "topic.dead-letters";
    public static final String GROUP_ID = "kafka.group.id";
    public static final String WINDOW = "window";
    public static final String OUT_OF_ORDERNESS = "out-of-orderness";
    public static final String ALLOWED_LATENESS = "allowed-lateness";
    public static final String IDLENESS = "idleness";
    public static final String EARLY_FIRING = "early-firing";
    public static final String CHECKPOINT_INTERVAL = "checkpoint.interval";
    public static final String CHECKPOINT_DIR = "checkpoint.dir";
    public static final String STATE_BACKEND = "state.backend";
    public static final String PARALLELISM = "parallelism";
    public static final String MATCH_THRESHOLD = "truncated.match-threshold";
    public static final String MAX_PENDING = "truncated.max-pending";
    public static final String MAX_PENDING_AGE = "truncated.max-age";
    public static final String TREE_CACHE = "tree-cache.size";
    public static final String TOPOLOGY_RECENT_IDS = "topology.recent-ids";
    public static final String NEO4J_URI = "neo4j.uri";
    public static final String NEO4J_USER = "neo4j.user";
    public static final String NEO4J_PASSWORD = "neo4j.password";
    public static final String NEO4J_DATABASE = "neo4j.database";
    public static final String NEO4J_RETRY = "neo4j.retry.max-time";
    public static final String BOUNDED = "bounded";

    /** Every key with its default and meaning, in the order the README lists them. */
    public static final Map<String, String[]> KEYS = keys();

    private static Map<String, String[]> keys() {
        Map<String, String[]> k = new LinkedHashMap<>();
        k.put(BOOTSTRAP_SERVERS, new String[] {"localhost:9092", "Kafka bootstrap servers"});
        k.put(SAMPLES_TOPIC, new String[] {"cctflow.samples", "topic the agents publish SampleBatches to"});
        k.put(TASKS_TOPIC, new String[] {"cctflow.tasks", "compacted topic of task definitions (Avro TaskDefinition keyed by id; a tombstone deletes); created compacted if missing"});
        k.put(MANIFESTS_TOPIC, new String[] {"cctflow.manifests", "topic the agents publish CodeManifests to; stored as the deployments' method fingerprints; empty: not read"});
        k.put(DEAD_LETTER_TOPIC, new String[] {"cctflow.samples.dlq", "topic for records that cannot be used; reason in header cctflow.error"});
        k.put(GROUP_ID, new String[] {"cctflow-samples-job", "Kafka consumer group"});
        k.put(WINDOW, new String[] {"1m", "event-time window of stored counts; at most 1 h"});
        k.put(OUT_OF_ORDERNESS, new String[] {"20s", "how late a batch may arrive behind the newest one and still be on time"});
        k.put(ALLOWED_LATENESS, new String[] {"2m", "a batch this far behind the watermark still updates its closed window; later ones are counted and dead-lettered"});
        k.put(IDLENESS, new String[] {"1m", "after this long without batches an input stops holding back the watermark"});
        k.put(EARLY_FIRING, new String[] {"5s", "open windows are written this often, so samples are queryable before the window closes"});
        k.put(CHECKPOINT_INTERVAL, new String[] {"10s", "Flink checkpoint interval"});
        k.put(CHECKPOINT_DIR, new String[] {"", "checkpoint storage URI (file://, s3://, ...); empty: the Flink cluster's setting"});
        k.put(STATE_BACKEND, new String[] {"rocksdb", "rocksdb (production: state larger than memory, incremental checkpoints) or hashmap (tests, standalone)"});
        k.put(PARALLELISM, new String[] {"1", "operator parallelism"});
        k.put(MATCH_THRESHOLD, new String[] {"2", "a truncated stack merges under a unique candidate only after more than this many frames matched (seed 002 Listing 3.2)"});
        k.put(MAX_PENDING, new String[] {"1000", "truncated stacks without a candidate kept per instance for retry; beyond it the oldest expire"});
        k.put(MAX_PENDING_AGE, new String[] {"10m", "a truncated stack still without a candidate after this long (processing time) expires"});
        k.put(TREE_CACHE, new String[] {"1024", "instance trees kept in memory per subtask for truncated-stack merging; others are rebuilt from state on use"});
        k.put(TOPOLOGY_RECENT_IDS, new String[] {"250000", "node ids each topology writer remembers as written (two generations of this many, ~48 bytes each), so nodes other instances of a service already created are not written again; 0: write every node new to its instance"});
        k.put(NEO4J_URI, new String[] {"bolt://localhost:7687", "Neo4j Bolt URI"});
        k.put(NEO4J_USER, new String[] {"", "Neo4j user; empty for no authentication"});
        k.put(NEO4J_PASSWORD, new String[] {"", "Neo4j password"});
        k.put(NEO4J_DATABASE, new String[] {"", "Neo4j database; empty for the default"});
        k.put(NEO4J_RETRY, new String[] {"10m", "while Neo4j is unavailable, writes are retried (the job backpressured) this long before the job restarts from its last checkpoint"});
        k.put(BOUNDED, new String[] {"false", "stop at the end offsets present at start (tests, backfills)"});
        return java.util.Collections.unmodifiableMap(k);
    }

    /** The configuration with every key at its default. */
    public static SamplesJobConfig defaults() {
        return from(Map.of());
    }

    /** Parses a configuration; throws {@link IllegalArgumentException} naming the first bad key. */
    public static SamplesJobConfig from(Map<String, String> values) {
        Set<String> unknown = new java.util.TreeSet<>(values.keySet());
        unknown.removeAll(KEYS.keySet());
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown job configuration key(s) " + unknown + "; known keys: " + KEYS.keySet());
        }
        Function<String, String> get = key -> values.getOrDefault(key, KEYS.get(key)[0]);
        return new SamplesJobConfig(
                nonBlank(BOOTSTRAP_SERVERS, get.apply(BOOTSTRAP_SERVERS)),
                nonBlank(SAMPLES_TOPIC, get.apply(SAMPLES_TOPIC)),
                nonBlank(TASKS_TOPIC, get.apply(TASKS_TOPIC)),
                get.apply(MANIFESTS_TOPIC).trim(),
                nonBlank(DEAD_LETTER_TOPIC, get.apply(DEAD_LETTER_TOPIC)),
                nonBlank(GROUP_ID, get.apply(GROUP_ID)),
                window(get.apply(WINDOW)),
                nonNegative(OUT_OF_ORDERNESS, get.apply(OUT_OF_ORDERNESS)),
                nonNegative(ALLOWED_LATENESS, get.apply(ALLOWED_LATENESS)),
                positive(IDLENESS, get.apply(IDLENESS)),
                positive(EARLY_FIRING, get.apply(EARLY_FIRING)),
                positive(CHECKPOINT_INTERVAL, get.apply(CHECKPOINT_INTERVAL)),
                get.apply(CHECKPOINT_DIR).trim(),
                oneOf(STATE_BACKEND, get.apply(STATE_BACKEND), "rocksdb", "hashmap"),
                positiveInt(PARALLELISM, get.apply(PARALLELISM)),
                nonNegativeInt(MATCH_THRESHOLD, get.apply(MATCH_THRESHOLD)),
                positiveInt(MAX_PENDING, get.apply(MAX_PENDING)),
                positive(MAX_PENDING_AGE, get.apply(MAX_PENDING_AGE)),
                positiveInt(TREE_CACHE, get.apply(TREE_CACHE)),
                nonNegativeInt(TOPOLOGY_RECENT_IDS, get.apply(TOPOLOGY_RECENT_IDS)),
                new GraphStoreConfig(nonBlank(NEO4J_URI, get.apply(NEO4J_URI)), get.apply(NEO4J_USER),
                        get.apply(NEO4J_PASSWORD), get.apply(NEO4J_DATABASE)),
                nonNegative(NEO4J_RETRY, get.apply(NEO4J_RETRY)),
                bool(BOUNDED, get.apply(BOUNDED)));
    }

    private static String nonBlank(String key, String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException(key + " must not be empty");
        }
        return value.trim();
    }

    private static Duration positive(String key, String value) {
        Duration d = nonNegative(key, value);
        if (d.isZero()) {
            throw new IllegalArgumentException(key + " must be > 0, got '" + value + "'");
        }
        return d;
    }

    /**
     * The window: positive and at most {@link WindowReader#MAX_FINE_WINDOW_MILLIS}, because range
     * reads look only that far back for a window reaching into a range.
     */
    private static Duration window(String value) {
        Duration d = positive(WINDOW, value);
        if (d.toMillis() > WindowReader.MAX_FINE_WINDOW_MILLIS) {
            throw new IllegalArgumentException(WINDOW + " must be at most "
                    + Duration.ofMillis(WindowReader.MAX_FINE_WINDOW_MILLIS).toMinutes() + " minutes (range reads "
                    + "look that far back for a window reaching into a range), got '" + value + "'");
        }
        return d;
    }

    private static Duration nonNegative(String key, String value) {
        Duration d;
        try {
            d = Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage());
        }
        if (d.isNegative()) {
            throw new IllegalArgumentException(key + " must not be negative, got '" + value + "'");
        }
        return d;
    }

    private static int positiveInt(String key, String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(key + " must be a whole number > 0, got '" + value + "'");
    }

    private static String oneOf(String key, String value, String... allowed) {
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        if (!java.util.Arrays.asList(allowed).contains(v)) {
            throw new IllegalArgumentException(key + " must be one of " + java.util.Arrays.toString(allowed) + ", got '"
                    + value + "'");
        }
        return v;
    }

    private static int nonNegativeInt(String key, String value) {
        try {
            int n = Integer.parseInt(value.trim());
            if (n >= 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException(key + " must be a whole number >= 0, got '" + value + "'");
    }

    private static boolean bool(String key, String value) {
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false, got '" + value + "'");
        };
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
        m.put(OUT_OF_ORDERNESS, outOfOrderness.toMillis() + "ms");
        m.put(ALLOWED_LATENESS, allowedLateness.toMillis() + "ms");
        m.put(IDLENESS, idleness.toMillis() + "ms");
        m.put(EARLY_FIRING, earlyFiring.toMillis() + "ms");
        m.put(CHECKPOINT_INTERVAL, checkpointInterval.toMillis() + "ms");
        m.put(CHECKPOINT_DIR, checkpointDir);
        m.put(STATE_BACKEND, stateBackend);
        m.put(PARALLELISM, Integer.toString(parallelism));
        m.put(MATCH_THRESHOLD, Integer.toString(matchThreshold));
        m.put(MAX_PENDING, Integer.toString(maxPendingStacks));
        m.put(MAX_PENDING_AGE, maxPendingAge.toMillis() + "ms");
        m.put(TREE_CACHE, Integer.toString(treeCacheSize));
        m.put(TOPOLOGY_RECENT_IDS, Integer.toString(topologyRecentIds));
        m.put(NEO4J_URI, graph.uri());
        m.put(NEO4J_USER, graph.user());
        m.put(NEO4J_PASSWORD, graph.password());
        m.put(NEO4J_DATABASE, graph.database());
        m.put(NEO4J_RETRY, neo4jRetryBudget.toMillis() + "ms");
        m.put(BOUNDED, Boolean.toString(bounded));
        return m;
    }
}
