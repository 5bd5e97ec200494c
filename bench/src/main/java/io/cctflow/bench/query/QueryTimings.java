package io.cctflow.bench.query;

import io.cctflow.model.MethodRecord;
import java.io.IOException;
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
     * Method metrics of the whole fleet over {@code range} ending {@code offset} before the
     * dataset's end, one method per call; {@code offset} moves by 37 min a call, so the ranges do
     * not line up with hours or days (a "last 24 hours" query reads hourly roll-ups and fine
     * windows at both edges). {@code clearCache} runs before the series and, when {@code cold},
     * before every call: cold calls decode every window they read from Neo4j; warm calls find
     * what the earlier calls of the series (other methods, ranges 37 min apart) read in the
     * service's window cache and read the rest (the windows at the moving edges) from Neo4j.
     */
    Timing methodMetrics(Duration range, double goalMillis, boolean cold, Runnable clearCache)
            throws IOException, InterruptedException {
        clearCache.run();
        long window = dataset.windowMillis();
        double first = 0;
        List<Double> timed = new ArrayList<>();
        for (int k = 0; k < methods.size(); k++) {
            long offset = Math.max(window, (Duration.ofMinutes(13 + 37L * k).toMillis() / window) * window);
            long to = dataset.toMillis() - offset;
            if (cold) {
                clearCache.run();
            }
            ApiClient.Call call = checkedMetrics(methods.get(k), to - range.toMillis(), to);
            if (k == 0) {
                first = call.millis();
            }
            if (k >= WARMUP) {
                timed.add(call.millis());
            }
        }
        return new Timing("method metrics, " + describe(range) + ", all " + dataset.instances() + " instances, "
                + (cold ? "cold" : "warm"), "GET /api/v1/metrics/method, " + options.repetitions() + " different"
                + " methods, ranges 37 min apart not aligned to hours; " + (cold
                        ? "window cache emptied before every call: every window decoded from Neo4j"
                        : "window cache kept across the calls (emptied before the first): the windows earlier"
                                + " calls read come from it, the moving edges from Neo4j"),
                first, timed, 0.95, goalMillis);
    }

    /**
     * {@code calls} untimed cold 24 h calls, so the timed series do not also time the JIT compiling
     * the service, the driver and Neo4j (on two cores it competes with the calls for seconds):
     * ranges ending 2 days and more before the dataset's end, so they share no window with the
     * timed ones (which lie within the last 38 hours); the window cache is emptied before every
     * call, here as in the cold series. Each method of the series in turn.
     */
    void warmUp(int calls, Runnable clearCache) throws IOException, InterruptedException {
        long window = dataset.windowMillis();
        long day = Duration.ofDays(1).toMillis();
        for (int k = 0; k < calls; k++) {
            long offset = ((2 * day + Duration.ofMinutes(13 + 37L * k).toMillis()) / window) * window;
            long to = Math.max(dataset.fromMillis() + day, dataset.toMillis() - offset);
            clearCache.run();
            checkedMetrics(methods.get(k % methods.size()), to - day, to);
        }
    }

    /** Metrics of the fleet over [from, to) for one method, checked against the dataset. */
    private ApiClient.Call checkedMetrics(String method, long from, long to) throws IOException, InterruptedException {
        ApiClient.Call call = api.get("/api/v1/metrics/method?service=" + FleetDataset.SERVICE + "&method="
                + ApiClient.encode(method) + "&from=" + Instant.ofEpochMilli(from) + "&to=" + Instant.ofEpochMilli(to));
        long expected = expectedSamples(from, to);
        long total = call.body().get("totalSamples").asLong();
        if (total != expected || call.body().get("methodSamples").asLong() <= 0) {
            throw new IllegalStateException("metrics of " + method + " over " + Instant.ofEpochMilli(from)
                    + ".." + Instant.ofEpochMilli(to) + ": totalSamples " + total + ", expected " + expected
                    + "; methodSamples " + call.body().get("methodSamples"));
        }
        return call;
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

    /** All samples of the fleet in the fine windows overlapping [from, to). */
    private long expectedSamples(long from, long to) {
        long window = dataset.windowMillis();
        long lo = Math.max(from, dataset.fromMillis());
        long hi = Math.min(to, dataset.toMillis());
        if (hi <= lo) {
            return 0;
        }
        long windows = (hi + window - 1) / window - lo / window; // windows are aligned to the epoch
        return windows * dataset.instances() * dataset.samplesPerWindow();
    }

    private static String describe(Duration range) {
        return range.toHours() % 24 == 0 ? range.toDays() == 1 ? "24 h" : range.toDays() + " days"
                : range.toHours() + " h";
    }
}
