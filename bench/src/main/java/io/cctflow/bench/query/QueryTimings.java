package io.cctflow.bench.query;

import io.cctflow.model.MethodRecord;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The timed calls against a running query service over a built {@link Dataset}. Every response is
 * checked (status 200, and the sample counts or node counts the dataset implies), so a fast wrong
 * answer cannot pass as a figure. Not thread-safe.
 */
final class QueryTimings {
    /** Untimed calls before the timed ones (the first of them is reported as the cold call). */
    static final int WARMUP = 3;

    /**
     * JIT compile seconds per wall second over {@link #QUIET_ROUNDS} warm-up rounds below which
     * the warm-up ends ({@link #warmUp}).
     */
    static final double QUIET_JIT = 0.1;
    static final int QUIET_ROUNDS = 5;
    /** The warm-up's rounds at most, in multiples of the ones asked for. */
    static final int QUIET_MOST = 10;

    private final ApiClient api;
    private final Dataset dataset;
    private final QueryBenchOptions options;
    private final List<String> methods;

    QueryTimings(ApiClient api, Dataset dataset, QueryBenchOptions options, CorpusStacks stacks) {
        this.api = api;
        this.dataset = dataset;
        this.options = options;
        this.methods = methods(stacks, WARMUP + options.repetitions());
    }

    /**
     * {@code n} different methods of the corpus, spread over the 400 found on the most stacks, as
     * {@code Class.method} (all overloads): heavy ones with many callees and light ones.
     */
    static List<String> methods(CorpusStacks stacks, int n) {
        Map<String, Integer> onStacks = new HashMap<>();
        for (int s = 0; s < stacks.stackCount(); s++) {
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < stacks.depth(s); i++) {
                MethodRecord m = stacks.frame(s, i);
                String name = m.className() + "." + m.methodName();
                if (m.className().matches("[\\w.$]+") && m.methodName().matches("[\\w$]+") && seen.add(name)) {
                    onStacks.merge(name, 1, Integer::sum);
                }
            }
        }
        List<String> ranked = new ArrayList<>(onStacks.keySet());
        ranked.sort(Comparator.<String>comparingInt(onStacks::get).reversed().thenComparing(Comparator.naturalOrder()));
        List<String> top = ranked.subList(0, Math.min(400, ranked.size()));
        List<String> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            out.add(top.get((int) ((long) k * top.size() / n)));
        }
        return out;
    }

    /**
     * Method metrics over {@code range} ending {@link #offset} before the dataset's end, one method
     * per call, of the whole fleet or of one instance ({@code instance}, an index, or -1); the
     * ranges do not line up with hours or days (a "last 24 hours" query reads hourly roll-ups,
     * ten-minute ones and fine windows at both edges). {@code clearCache} runs before the series
     * and, when {@code cold}, before every call: cold calls decode every window they read from
     * Neo4j; warm calls find what the earlier calls of the series (other methods, ranges minutes
     * apart) read in the service's window cache and read the rest (the windows at the moving
     * edges) from Neo4j.
     */
    Timing methodMetrics(Duration range, double goalMillis, boolean cold, int instance, Runnable clearCache)
            throws IOException, InterruptedException {
        return series(behindEnd(range, 0), goalMillis, cold, clearCache, "method metrics, " + describe(range) + ", "
                + whom(instance) + (cold ? ", cold" : ", warm"), "GET /api/v1/metrics/method, " + options.repetitions()
                + " different methods, ranges not aligned to hours",
                (k, from, to) -> checkedMetrics(methods.get(k), instance, from, to));
    }

    /**
     * {@link #methodMetrics} of the whole fleet, cold, over ranges that end at the dataset's end: a
     * "last 3 hours" read of a live deployment, which reads the minutes the roll-up pass has not
     * summed yet as fine windows, one per instance and minute (on a store made live by {@code
     * --phase live}: the last {@code rollup.minute-settle}). The k-th range starts k windows later
     * than {@code range} before the end, so no call's plan or tree is another's.
     */
    Timing methodMetricsAtEnd(Duration range, double goalMillis, Runnable clearCache)
            throws IOException, InterruptedException {
        return series(atEnd(range, 0), goalMillis, true, clearCache, "method metrics, " + describe(range)
                + " ending at the dataset's end (live edge), " + whom(-1) + ", cold", "GET /api/v1/metrics/method, "
                + options.repetitions() + " different methods, starts one window apart",
                (k, from, to) -> checkedMetrics(methods.get(k), -1, from, to));
    }

    /**
     * The UI's hot-methods table over {@code range} of the whole fleet: its one call ({@code
     * /api/v1/metrics/top}, {@code by=both}, {@code top=500}; until 2026-12-01 the UI made two,
     * {@code by=self} and {@code by=method}, timed here one after the other); caches as {@link
     * #methodMetrics}, ranges other than its (the tree cache, keyed by the windows read, would
     * otherwise serve a cold call the tree of a metrics call).
     */
    Timing topMethods(Duration range, double goalMillis, boolean cold, Runnable clearCache)
            throws IOException, InterruptedException {
        return series(behindEnd(range, methods.size()), goalMillis, cold, clearCache,
                "top methods (the hot-methods table), " + describe(range) + ", " + whom(-1)
                + (cold ? ", cold" : ", warm"), "GET /api/v1/metrics/top by=both, top=500, ranges not"
                + " aligned to hours", (k, from, to) -> checkedTable(from, to));
    }

    /**
     * {@link #topMethods}, cold, over ranges ending at the dataset's end as {@link
     * #methodMetricsAtEnd}'s, other than theirs (the tree cache would serve them).
     */
    Timing topMethodsAtEnd(Duration range, double goalMillis, Runnable clearCache)
            throws IOException, InterruptedException {
        return series(atEnd(range, methods.size()), goalMillis, true, clearCache, "top methods (the hot-methods table), "
                + describe(range) + " ending at the dataset's end (live edge), " + whom(-1) + ", cold",
                "GET /api/v1/metrics/top by=both, top=500, starts one window apart", (k, from, to) -> checkedTable(from, to));
    }

    /** One call of a series: the {@code k}-th, over [from, to), checked. */
    private interface RangeCall {
        ApiClient.Call call(int k, long from, long to) throws IOException, InterruptedException;
    }

    /** The range [from, to) of the {@code k}-th call of a series. */
    private interface Ranges {
        long[] of(int k);
    }

    /** Ranges of {@code range} ending {@link #offset} before the dataset's end, those of calls {@code shift, shift + 1, ...}. */
    private Ranges behindEnd(Duration range, int shift) {
        return k -> {
            long to = dataset.toMillis() - offset(range, shift + k);
            return new long[] {to - range.toMillis(), to};
        };
    }

    /**
     * The most {@code --repetitions} for which the two series ending at the dataset's end ({@link
     * #methodMetricsAtEnd}, {@link #topMethodsAtEnd}) fit in {@code range}: their {@code 2 × (WARMUP
     * + repetitions)} calls start one window apart, and the last still reads a whole window. Less
     * than 1 when none fit (5-min windows leave room for 15 in 3 h, 1-min windows for 87).
     */
    static int mostRepetitionsAtEnd(Duration range, long windowMillis) {
        return (int) (range.toMillis() / (2 * windowMillis)) - WARMUP;
    }

    /**
     * Ranges ending at the dataset's end, those of calls {@code shift, shift + 1, ...}: the k-th
     * starting k windows later than {@code range} before it.
     */
    private Ranges atEnd(Duration range, int shift) {
        return k -> new long[] {dataset.toMillis() - range.toMillis() + (shift + k) * dataset.windowMillis(),
                dataset.toMillis()};
    }

    private Timing series(Ranges ranges, double goalMillis, boolean cold, Runnable clearCache, String what,
            String detail, RangeCall each) throws IOException, InterruptedException {
        clearCache.run();
        double first = 0;
        List<Double> timed = new ArrayList<>();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long jitAtStart = 0;
        long wallAtStart = 0;
        for (int k = 0; k < methods.size(); k++) {
            long[] range = ranges.of(k);
            if (cold) {
                clearCache.run();
            }
            if (k == WARMUP) {
                jitAtStart = jit.getTotalCompilationTime();
                wallAtStart = System.nanoTime();
            }
            ApiClient.Call call = each.call(k, range[0], range[1]);
            if (k == 0) {
                first = call.millis();
            }
            if (k >= WARMUP) {
                timed.add(call.millis());
            }
        }
        // what competed with the timed calls for the machine's cores (two here)
        double jitShare = (jit.getTotalCompilationTime() - jitAtStart) * 1e6 / Math.max(1, System.nanoTime() - wallAtStart);
        return new Timing(what, detail + "; " + (cold
                ? "window cache emptied before every call: every window decoded from Neo4j"
                : "window cache kept across the calls (emptied before the first): the windows earlier calls read"
                        + " come from it, the moving edges from Neo4j")
                + String.format("; the JIT compiled %.2f s per s of the timed calls", jitShare), first, timed, 0.95,
                goalMillis);
    }

    /**
     * How far before the dataset's end the {@code k}-th range of a series ends, in whole windows: 13
     * min, then 37 min more each call; when the dataset is an hour or more longer than the range,
     * wrapped within that slack, so every range lies inside the dataset.
     */
    long offset(Duration range, int k) {
        long window = dataset.windowMillis();
        long minutes = 13 + 37L * k;
        long slack = dataset.hours() * 60L - range.toMinutes();
        if (slack >= 60) {
            minutes = 1 + (12 + 37L * k) % (slack - 1);
        }
        return Math.max(window, (Duration.ofMinutes(minutes).toMillis() / window) * window);
    }

    /**
     * Untimed cold rounds over {@code range}, so the timed series do not also time the JIT
     * compiling the service, the driver and Neo4j (on two cores it competes with the calls: ten
     * rounds left it compiling 19 s in the next 20 s, and the live-edge calls' p95 three times
     * their median): at least {@code calls} rounds, then more until the JIT compiled less than
     * {@link #QUIET_JIT} s per s over the last {@link #QUIET_ROUNDS}, at most {@link #QUIET_MOST}
     * times {@code calls}; returns how many. A round is a metrics call, the hot-methods table's
     * call over the same range, and a metrics call ending at the dataset's end. Ranges ending 2
     * days and more before the dataset's end where the dataset is long enough, so they share no
     * window with the timed ones (which lie within the last 38 hours); else the timed series' own
     * ranges shortened by one window, so the tree cache (keyed by the windows read) holds no
     * answer a timed call could use. The window cache is emptied before every call, here as in
     * the cold series. Each method of the series in turn. The call ending at the dataset's end
     * starts up to 50 windows before any of the live-edge series, so the queries only a read
     * ending there runs (on a live store) are past their planning too. Neo4j plans each query
     * again once it has run ten times ({@code internal.cypher.expression_recompilation_limit}):
     * with 7 rounds or more, plus a series' {@link #WARMUP} untimed calls, the queries every call
     * runs are past that before the timed calls (a list parameter in a new size decade is a new
     * plan-cache entry, planned again).
     */
    int warmUp(int calls, Duration range, Runnable clearCache) throws IOException, InterruptedException {
        long window = dataset.windowMillis();
        long day = Duration.ofDays(1).toMillis();
        boolean apart = dataset.hours() >= 24 * 3;
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        List<long[]> marks = new ArrayList<>(); // per round: wall and JIT milliseconds after it
        int k = 0;
        while (k < calls * QUIET_MOST) {
            // past the first rounds' ranges, each 50 rounds one window shorter: none repeats, so
            // the tree cache serves none of them and each reads its windows (those ending at the
            // end repeat after 50: by then that code has run 50 times)
            long shorter = (long) (k / 50) * window;
            long to = apart ? Math.max(dataset.fromMillis() + day, dataset.toMillis()
                    - ((2 * day + Duration.ofMinutes(13 + 37L * k).toMillis()) / window) * window)
                    : dataset.toMillis() - offset(range, k);
            long from = to - (apart ? day : range.toMillis() - window) + shorter;
            clearCache.run();
            checkedMetrics(methods.get(k % methods.size()), -1, from, to);
            // the hot-methods table's call over the same range (its own plan shapes and code)
            clearCache.run();
            checkedTable(from, to);
            // and one ending at the dataset's end, starting before any of the live-edge series: on a
            // live store only those reads list the fine windows under provisional minute sums
            long end = dataset.toMillis();
            clearCache.run();
            checkedMetrics(methods.get(k % methods.size()), -1,
                    Math.max(dataset.fromMillis(), end - range.toMillis() - (1 + k % 50) * window), end);
            k++;
            marks.add(new long[] {System.nanoTime() / 1_000_000, jit.getTotalCompilationTime()});
            if (k >= calls && marks.size() > QUIET_ROUNDS) {
                long[] a = marks.get(marks.size() - 1 - QUIET_ROUNDS);
                long[] b = marks.get(marks.size() - 1);
                if (b[1] - a[1] < QUIET_JIT * (b[0] - a[0])) {
                    break;
                }
            }
        }
        return k;
    }

    /** Metrics over [from, to) for one method, of the fleet or instance {@code instance}, checked against the dataset. */
    private ApiClient.Call checkedMetrics(String method, int instance, long from, long to)
            throws IOException, InterruptedException {
        ApiClient.Call call = api.get("/api/v1/metrics/method?service=" + FleetDataset.SERVICE + "&method="
                + ApiClient.encode(method) + (instance < 0 ? "" : "&instance=" + FleetDataset.instanceId(instance))
                + range(from, to));
        long expected = expectedSamples(from, to, instance < 0 ? dataset.instances() : 1);
        long total = call.body().get("totalSamples").asLong();
        if (total != expected || call.body().get("methodSamples").asLong() <= 0) {
            throw new IllegalStateException("metrics of " + method + " over " + Instant.ofEpochMilli(from)
                    + ".." + Instant.ofEpochMilli(to) + ": totalSamples " + total + ", expected " + expected
                    + "; methodSamples " + call.body().get("methodSamples"));
        }
        return call;
    }

    /**
     * The fleet's top methods over [from, to) by self and by method ({@code by=both}, top 500),
     * checked: every sample of the range; first the top by self, in order of self samples, then
     * those of the top by method not among them, in order of method samples (at most 1,000 rows,
     * each method once); each row's counts within the range's samples, the self counts of all rows
     * at most all samples.
     */
    private ApiClient.Call checkedTable(long from, long to) throws IOException, InterruptedException {
        ApiClient.Call call = api.get("/api/v1/metrics/top?service=" + FleetDataset.SERVICE + "&by=both&top=500"
                + range(from, to));
        long expected = expectedSamples(from, to, dataset.instances());
        var body = call.body();
        var rows = body.get("methods");
        int bySelf = Math.min(500, body.get("methodCount").asInt());
        Set<String> names = new HashSet<>();
        long self = 0;
        long previous = Long.MAX_VALUE;
        for (int k = 0; k < rows.size(); k++) {
            var row = rows.get(k);
            if (k == bySelf) {
                previous = Long.MAX_VALUE; // the top by method begins
            }
            long key = row.get(k < bySelf ? "selfSamples" : "methodSamples").asLong();
            self += row.get("selfSamples").asLong();
            if (key > previous || row.get("methodSamples").asLong() > expected || !names.add(row.get("method").asText())) {
                throw new IllegalStateException("top methods by self and by method: row " + k + " " + row
                        + " out of order, above " + expected + " samples or listed twice");
            }
            previous = key;
        }
        if (body.get("totalSamples").asLong() != expected || rows.size() < bySelf || rows.size() > 1000
                || self > expected) {
            throw new IllegalStateException("top methods over " + Instant.ofEpochMilli(from) + ".."
                    + Instant.ofEpochMilli(to) + ": totalSamples " + body.get("totalSamples") + ", expected " + expected
                    + "; " + rows.size() + " rows of " + body.get("methodCount") + " methods, " + self + " self samples");
        }
        return call;
    }

    /**
     * Deployment 0 against deployment 1 of the fleet (each {@code instances / deployments}
     * instances) over the same hour, ending {@link #offset} before the dataset's end, window cache
     * emptied before every call; checked: each side's samples are its instances' over the hour.
     */
    Timing fleetCompare(double goalMillis, Runnable clearCache) throws IOException, InterruptedException {
        Duration hour = Duration.ofHours(1);
        List<Double> timed = new ArrayList<>();
        double first = 0;
        long expectedA = 0;
        long expectedB = 0;
        for (int k = 0; k < dataset.instances(); k++) {
            int d = FleetDataset.deploymentOf(k, dataset.instances(), dataset.deployments());
            expectedA += d == 0 ? 1 : 0;
            expectedB += d == 1 ? 1 : 0;
        }
        for (int k = 0; k < 2 + options.calls(); k++) {
            long to = dataset.toMillis() - offset(hour, k);
            clearCache.run();
            ApiClient.Call call = api.get("/api/v1/compare?service=" + FleetDataset.SERVICE
                    + side("a", 0, to - hour.toMillis(), to) + side("b", 1, to - hour.toMillis(), to) + "&top=20");
            long a = call.body().at("/a/samples").asLong();
            long b = call.body().at("/b/samples").asLong();
            long windows = hour.toMillis() / dataset.windowMillis() * dataset.samplesPerWindow();
            if (a != windows * expectedA || b != windows * expectedB) {
                throw new IllegalStateException("compare over the hour to " + Instant.ofEpochMilli(to) + ": samples "
                        + a + " and " + b + ", expected " + windows * expectedA + " and " + windows * expectedB);
            }
            if (k == 0) {
                first = call.millis();
            } else if (k >= 2) {
                timed.add(call.millis());
            }
        }
        return new Timing(String.format("compare deployment against deployment, %d and %d instances, 1 h", expectedA,
                expectedB), "GET /api/v1/compare a.version vs b.version over one hour (the same for both), "
                + "window cache emptied before every call", first, timed, 0.95, goalMillis);
    }

    /** One side of a compare: deployment {@code d} over [from, to). */
    private static String side(String name, int d, long from, long to) {
        return "&" + name + ".version=" + FleetDataset.version(d) + "&" + name + ".from=" + Instant.ofEpochMilli(from)
                + "&" + name + ".to=" + Instant.ofEpochMilli(to);
    }

    private static String range(long from, long to) {
        return "&from=" + Instant.ofEpochMilli(from) + "&to=" + Instant.ofEpochMilli(to);
    }

    private String whom(int instance) {
        return instance < 0 ? "all " + dataset.instances() + " instances"
                : "one instance (" + FleetDataset.instanceId(instance) + ") of " + dataset.instances();
    }

    /** The tree below {@link SyntheticDeployments#TREE_METHOD} in v1, unpruned, as JSON. */
    Timing tree(double goalMillis) throws IOException, InterruptedException {
        String query = "/api/v1/tree?service=" + SyntheticDeployments.SERVICE + "&version=v1&method="
                + ApiClient.encode(SyntheticDeployments.TREE_METHOD);
        List<ApiClient.Call> calls = repeat(query);
        int nodes = calls.get(0).body().get("nodes").asInt();
        if (nodes < dataset.treeNodes()) {
            throw new IllegalStateException("the tree holds " + nodes + " nodes, fewer than the " + dataset.treeNodes()
                    + " written below " + SyntheticDeployments.TREE_METHOD);
        }
        return timing("tree of a " + String.format("%,d", nodes) + "-node subtree", "GET /api/v1/tree?method="
                + SyntheticDeployments.TREE_METHOD + " (synthetic: corpus copies, see README), " + String.format(
                "%,d", calls.get(0).bytes()) + " bytes of JSON", calls, goalMillis);
    }

    /** v1 against v2 of the synthetic deployments. */
    Timing compare(double goalMillis) throws IOException, InterruptedException {
        List<ApiClient.Call> calls = repeat("/api/v1/compare?service=" + SyntheticDeployments.SERVICE
                + "&a.version=v1&b.version=v2&top=20");
        var body = calls.get(0).body();
        int a = body.at("/a/nodes").asInt();
        int b = body.at("/b/nodes").asInt();
        if (a < dataset.diffNodesA() || b < dataset.diffNodesB()) {
            throw new IllegalStateException("compare saw " + a + " and " + b + " nodes, written were "
                    + dataset.diffNodesA() + " and " + dataset.diffNodesB());
        }
        return timing(String.format("compare two deployments of %,d and %,d nodes", a, b),
                String.format("GET /api/v1/compare (synthetic, see README): common tree %s, %d differences;"
                        + " first call with an empty topology cache", body.at("/commonTree/size"),
                        body.get("differences").size()), calls, goalMillis);
    }

    private List<ApiClient.Call> repeat(String query) throws IOException, InterruptedException {
        List<ApiClient.Call> calls = new ArrayList<>();
        for (int k = 0; k < 2 + options.calls(); k++) {
            calls.add(api.get(query));
        }
        return calls;
    }

    private static Timing timing(String what, String detail, List<ApiClient.Call> calls, double goalMillis) {
        List<Double> timed = calls.subList(2, calls.size()).stream().map(ApiClient.Call::millis).toList();
        return new Timing(what, detail, calls.get(0).millis(), timed, 0.5, goalMillis);
    }

    /** All samples of {@code instances} instances in the fine windows overlapping [from, to). */
    private long expectedSamples(long from, long to, int instances) {
        long window = dataset.windowMillis();
        long lo = Math.max(from, dataset.fromMillis());
        long hi = Math.min(to, dataset.toMillis());
        if (hi <= lo) {
            return 0;
        }
        long windows = (hi + window - 1) / window - lo / window; // windows are aligned to the epoch
        return windows * instances * dataset.samplesPerWindow();
    }

    private static String describe(Duration range) {
        return range.toHours() % 24 != 0 || range.toDays() == 1 ? range.toHours() + " h" : range.toDays() + " days";
    }
}
