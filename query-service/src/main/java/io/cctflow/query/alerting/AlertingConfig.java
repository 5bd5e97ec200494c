package io.cctflow.query.alerting;

import io.cctflow.core.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

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

    /** Every key with its default and meaning, in the order the README lists them. */
    public static final Map<String, String[]> KEYS = keys();

    private static Map<String, String[]> keys() {
        Map<String, String[]> k = new LinkedHashMap<>();
        k.put(ENABLED, new String[] {"true", "serve /metrics and refresh it in the background"});
        k.put(WATCH, new String[] {"", "watched methods, comma-separated service:fully.qualified.Class.method[(descriptor)], at most "
                + MAX_WATCHED});
        k.put(TASKS, new String[] {"", "tasks whose roots the service's watched methods are also measured against, comma-separated service:task, at most "
                + MAX_TASKS});
        k.put(TOP_K, new String[] {"10", "method time shifts exported per service (newest deployment against its predecessor), 1.."
                + MAX_TOP_K});
        k.put(WINDOW, new String[] {"5m", "trailing sample window of each deployment's metrics"});
        k.put(REFRESH, new String[] {"30s", "delay between two background refreshes (a scrape never queries Neo4j)"});
        k.put(MIN_SAMPLES, new String[] {"100", "a deployment is compared with its predecessor only when both windows hold at least this many samples"});
        return Collections.unmodifiableMap(k);
    }

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
        Set<String> unknown = new TreeSet<>();
        for (String key : values.keySet()) {
            if (key.startsWith("alerting.") && !KEYS.containsKey(key)) {
                unknown.add(key);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown alerting key(s) " + unknown + "; known keys: " + KEYS.keySet());
        }
        Function<String, String> get = key -> values.getOrDefault(key, KEYS.get(key)[0]);
        return new AlertingConfig(bool(ENABLED, get.apply(ENABLED)), watchList(get.apply(WATCH)),
                list(TASKS, get.apply(TASKS), WatchedTask::parse), (int) whole(TOP_K, get.apply(TOP_K)), duration(WINDOW, get.apply(WINDOW)),
                duration(REFRESH, get.apply(REFRESH)), whole(MIN_SAMPLES, get.apply(MIN_SAMPLES)));
    }

    private static List<WatchedMethod> watchList(String value) {
        return list(WATCH, value, WatchedMethod::parse);
    }

    /** Comma-separated entries, blanks skipped; a bad entry fails naming the key. */
    private static <T> List<T> list(String key, String value, Function<String, T> parse) {
        List<T> out = new ArrayList<>();
        for (String entry : value.split(",")) {
            if (!entry.isBlank()) {
                try {
                    out.add(parse.apply(entry.trim()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
                }
            }
        }
        return out;
    }

    private static boolean bool(String key, String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false, got '" + value + "'");
        };
    }

    private static long whole(String key, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, got '" + value + "'", e);
        }
    }

    /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h} or ISO-8601 ({@link Durations}), as the samples job's keys. */
    private static Duration duration(String key, String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + ": " + e.getMessage(), e);
        }
    }
}
