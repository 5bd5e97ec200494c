package io.cctflow.query.alerting;

import io.cctflow.core.config.Config;
import io.cctflow.core.config.ConfigDef;
import io.cctflow.core.config.ConfigKey;
import io.cctflow.core.config.ValueParser;
import io.cctflow.core.config.ValueParsers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The typed configuration of {@code /metrics}. Built from string key/values; every key has a
 * default, and a bad value or an unknown {@code alerting.*} key fails at start-up with the key
 * named. Keys outside the {@code alerting.} prefix are ignored, so one map can configure the whole
 * query service. Immutable.
 *
 * @param watch methods whose time is exported for the newest deployment of their service; at most
 *     {@link #MAX_WATCHED} entries
 * @param tasks tasks whose roots the watched methods of their service are also measured against,
 *     and whose samples are exported; at most {@link #MAX_TASKS} entries
 * @param topK shifts exported per service, 1..{@link #MAX_TOP_K}
 * @param window length of the trailing sample window each deployment's metrics are computed over
 * @param refresh delay between the end of one refresh and the start of the next
 * @param minSamples a deployment pair is compared only when both windows hold at least this many
 *     samples (fewer would make every method look shifted)
 */
public record AlertingConfig(boolean enabled, List<WatchedMethod> watch, List<WatchedTask> tasks, int topK,
        Duration window, Duration refresh, long minSamples) {

    /** Bound on the watch list: one series per entry and metric, for the newest deployment only. */
    public static final int MAX_WATCHED = 100;
    /** Bound on the task list: per task one series, plus one per watched method of its service. */
    public static final int MAX_TASKS = 20;
    /** Bound on K: series per service and shift metric. */
    public static final int MAX_TOP_K = 100;

    public static final String ENABLED = "alerting.enabled";
    public static final String WATCH = "alerting.watch";
    public static final String TASKS = "alerting.tasks";
    public static final String TOP_K = "alerting.top-k";
    public static final String WINDOW = "alerting.window";
    public static final String REFRESH = "alerting.refresh";
    public static final String MIN_SAMPLES = "alerting.min-samples";

    private static final ConfigKey<Boolean> ENABLED_KEY = ConfigKey.of(ENABLED, ValueParsers.bool(), "true",
            "serve /metrics and refresh it in the background");
    private static final ConfigKey<List<WatchedMethod>> WATCH_KEY = ConfigKey.of(WATCH, list(WatchedMethod::parse), "",
            "watched methods, comma-separated `service:fully.qualified.Class.method[(descriptor)]` (without a descriptor: all overloads, counted once per sample), at most "
            + MAX_WATCHED);
    private static final ConfigKey<List<WatchedTask>> TASKS_KEY = ConfigKey.of(TASKS, list(WatchedTask::parse), "",
            "watched tasks, comma-separated `service:task` (the task name as the samples job labels nodes, e.g. a definition's `nameTemplate`), at most "
            + MAX_TASKS + ": their samples and the service's watched methods relative to their roots are exported");
    private static final ConfigKey<Long> TOP_K_KEY = ConfigKey.of(TOP_K, ValueParsers.whole(), "10",
            "method time shifts exported per service (newest deployment against its predecessor), 1.." + MAX_TOP_K);
    private static final ConfigKey<Duration> WINDOW_KEY = ConfigKey.of(WINDOW, ValueParsers.duration(), "5m",
            "trailing sample window of each deployment's metrics (`500ms`, `30s`, `5m`, `1h` or ISO-8601)");
    private static final ConfigKey<Duration> REFRESH_KEY = ConfigKey.of(REFRESH, ValueParsers.duration(), "30s",
            "delay between two background refreshes (a scrape never queries Neo4j)");
    private static final ConfigKey<Long> MIN_SAMPLES_KEY = ConfigKey.of(MIN_SAMPLES, ValueParsers.whole(), "100",
            "a deployment is compared with its predecessor only when both windows hold at least this many samples");

    /**
     * Every key with its default and meaning, in the order the README lists them; owns the
     * {@code alerting.} prefix only.
     */
    public static final ConfigDef KEYS = ConfigDef.builder("alerting", "alerting.")
            .define(ENABLED_KEY, WATCH_KEY, TASKS_KEY, TOP_K_KEY, WINDOW_KEY, REFRESH_KEY, MIN_SAMPLES_KEY).build();

    public AlertingConfig {
        watch = List.copyOf(watch);
        tasks = List.copyOf(tasks);
        if (tasks.size() > MAX_TASKS) {
            throw new IllegalArgumentException(TASKS + " lists " + tasks.size() + " tasks; at most " + MAX_TASKS
                    + " are allowed (each is a set of time series)");
        }
        if (watch.size() > MAX_WATCHED) {
            throw new IllegalArgumentException(WATCH + " lists " + watch.size() + " methods; at most " + MAX_WATCHED
                    + " are allowed (each is a time series)");
        }
        if (topK < 1 || topK > MAX_TOP_K) {
            throw new IllegalArgumentException(TOP_K + " must be 1.." + MAX_TOP_K + ", got " + topK);
        }
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException(WINDOW + " must be > 0, got " + window);
        }
        if (refresh.isNegative() || refresh.isZero()) {
            throw new IllegalArgumentException(REFRESH + " must be > 0, got " + refresh);
        }
        if (minSamples < 1) {
            throw new IllegalArgumentException(MIN_SAMPLES + " must be >= 1, got " + minSamples);
        }
    }

    /** Every key at its default. */
    public static AlertingConfig defaults() {
        return from(Map.of());
    }

    /** Parses the {@code alerting.*} keys; throws {@link IllegalArgumentException} naming the first bad key. */
    public static AlertingConfig from(Map<String, String> values) {
        Config c = KEYS.parse(values);
        long topK = c.get(TOP_K_KEY);
        if (topK != (int) topK) {
            throw new IllegalArgumentException(TOP_K + " must be 1.." + MAX_TOP_K + ", got " + topK);
        }
        return new AlertingConfig(c.get(ENABLED_KEY), c.get(WATCH_KEY), c.get(TASKS_KEY), (int) topK,
                c.get(WINDOW_KEY), c.get(REFRESH_KEY), c.get(MIN_SAMPLES_KEY));
    }

    /** Comma-separated entries, blanks skipped; a bad entry's message says which. */
    private static <T> ValueParser<List<T>> list(ValueParser<T> entry) {
        return raw -> {
            List<T> out = new ArrayList<>();
            for (String part : raw.split(",")) {
                if (!part.isBlank()) {
                    out.add(entry.parse(part.trim()));
                }
            }
            return List.copyOf(out);
        };
    }
}
