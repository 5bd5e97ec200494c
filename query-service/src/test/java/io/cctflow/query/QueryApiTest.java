package io.cctflow.query;

import static io.cctflow.query.QueryFixture.SERVICE;
import static io.cctflow.query.QueryFixture.T0;
import static io.cctflow.query.QueryFixture.WINDOW;
import static io.cctflow.query.QueryFixture.enc;
import static io.cctflow.query.QueryFixture.key;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.core.Cct;
import io.cctflow.core.metrics.CallSite;
import io.cctflow.core.metrics.CallSites;
import io.cctflow.core.metrics.MethodMetrics;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import io.cctflow.core.metrics.Shares;
import io.cctflow.core.task.TaskDefinition;
import io.cctflow.core.task.TaskLabeller;
import io.cctflow.core.task.TaskLabels;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.graph.maintenance.Rollups;
import io.cctflow.model.MethodRecord;
import io.cctflow.model.NodeTasks;
import io.cctflow.servers.TestServers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * Every number of the metrics and tree endpoints against cct-core computed in memory on the same
 * random samples, over a real Neo4j filled by the graph-store writer.
 */
class QueryApiTest {
    private static final QueryFixture DATA = new QueryFixture();
    private static final Map<Long, String> NAMES = QueryFixture.signatures();
    private static Driver driver;
    private static QueryService service;
    private static QueryFixture.Api api;

    /** A selection as query parameters, and the executions and range it means. */
    record Case(String query, List<String> executions, long from, long to) {
    }

    static List<Case> cases() {
        long end = T0 + 8 * WINDOW + 1;
        return List.of(
                new Case("service=shop", List.of(key("a"), key("b"), key("c")), T0, end),
                new Case("service=shop&version=v1", List.of(key("a"), key("b")), T0, T0 + 5 * WINDOW + 1),
                new Case("service=shop&instance=a&instance=c", List.of(key("a"), key("c")), T0, end),
                new Case("service=shop&label=zone%3Dx", List.of(key("a"), key("c")), T0, end),
                new Case("at=shop@v2", List.of(key("c")), T0 + 5 * WINDOW, T0 + 8 * WINDOW),
                new Case("service=shop&from=" + iso(T0 + 2 * WINDOW) + "&to=" + iso(T0 + 3 * WINDOW + 30_000),
                        List.of(key("a"), key("b"), key("c")), T0 + 2 * WINDOW, T0 + 3 * WINDOW + 30_000));
    }

    static String iso(long millis) {
        return Instant.ofEpochMilli(millis).toString();
    }

    @BeforeAll
    static void start() throws Exception {
        driver = TestServers.get().newDriver();
        DATA.write(driver, 42);
        service = QueryService.start(QueryServiceConfig.defaults().with(Map.of(
                QueryServiceConfig.PORT, "0", QueryServiceConfig.NEO4J_URI, TestServers.get().neo4jUri(),
                QueryServiceConfig.BOOTSTRAP_SERVERS, TestServers.get().kafkaBootstrapServers(),
                QueryServiceConfig.ROLLUP_INTERVAL, "0")));
        api = new QueryFixture.Api(service.port(), null);
    }

    @AfterAll
    static void stop() {
        service.close();
        driver.close();
    }

    @Test
    void methodMetricsEqualCctCoreForEverySelectionAndMethod() {
        for (Case c : cases()) {
            Cct ref = DATA.reference(c.executions(), c.from(), c.to());
            assertThat(ref.total(Cct.ROOT)).as(c.query()).isPositive();
            for (MethodRecord m : QueryFixture.METHODS) {
                String selector = m.className() + "." + m.methodName() + m.descriptor();
                JsonNode r = api.get("/api/v1/metrics/method?" + c.query() + "&method=" + enc(selector), 200);
                assertMetrics(r, Scope.whole(ref), m, c.query());
                assertThat(r.get("scope").asText()).isEqualTo("whole");
            }
            // all overloads of Cart.total together, and each on its own
            JsonNode r = api.get("/api/v1/metrics/method?" + c.query() + "&method=com.shop.Cart.total", 200);
            Set<Long> both = Set.of(QueryFixture.METHODS.get(1).id(), QueryFixture.METHODS.get(2).id());
            MethodTime all = MethodTime.of(Scope.whole(ref), both::contains);
            assertThat(r.get("methodSamples").asLong()).as(c.query()).isEqualTo(all.methodSamples());
            assertThat(r.get("selfSamples").asLong()).isEqualTo(all.selfSamples());
            assertThat(r.get("metrics")).hasSize(2);
        }
    }

    /**
     * The thread filters against a brute-force per-thread count: cct-core's tree of only the samples
     * whose raw thread name the filter selects ("worker-1" selects the pool "worker-#", so both
     * workers' samples; "m" as a group selects "main").
     */
    @Test
    void threadFiltersCountOnlyTheSelectedThreadsSamples() {
        Map<String, java.util.function.Predicate<String>> filters = Map.of(
                "&thread=worker-1", t -> t.startsWith("worker-"),
                "&thread=main", t -> t.equals("main"),
                "&thread-group=m", t -> t.equals("main"),
                "&thread=main&thread-group=wor", t -> true);
        filters.forEach((filter, selects) -> {
            for (Case c : cases()) {
                Cct ref = DATA.reference(c.executions(), c.from(), c.to(), selects);
                String what = c.query() + filter;
                for (MethodRecord m : QueryFixture.METHODS) {
                    JsonNode r = api.get("/api/v1/metrics/method?" + c.query() + filter + "&method="
                            + enc(m.className() + "." + m.methodName() + m.descriptor()), 200);
                    assertMetrics(r, Scope.whole(ref), m, what);
                }
                JsonNode tree = api.get("/api/v1/tree?" + c.query() + filter, 200);
                assertThat(tree.get("totalSamples").asLong()).as(what).isEqualTo(ref.total(Cct.ROOT));
                assertThat(tree.get("nodes").asInt()).as(what).isEqualTo(ref.size());
            }
        });
        JsonNode compare = api.get("/api/v1/compare?service=shop&a.version=v1&b.version=v2&thread=main", 200);
        assertThat(compare.get("a").get("samples").asLong()).isEqualTo(DATA.reference(List.of(key("a"), key("b")),
                0, Long.MAX_VALUE, "main"::equals).total(Cct.ROOT));
        // a thread filter makes each side one replicate (the windows' tables hold every thread)
        assertThat(compare.get("significance").get("model").asText()).isEqualTo("withheld");
        assertThat(api.get("/api/v1/tree?service=shop&thread=nope", 404).get("error").asText())
                .contains("'thread'").contains("worker-#");
        assertThat(api.get("/api/v1/metrics/method?service=shop&method=com.shop.Db.query&thread-group=", 400)
                .get("error").asText()).contains("'thread-group'");
    }

    @Test
    void dynamicRootMetricsEqualCctCore() {
        MethodRecord root = QueryFixture.METHODS.get(3); // Tax.rate
        for (Case c : cases()) {
            Cct ref = DATA.reference(c.executions(), c.from(), c.to());
            for (MethodRecord m : QueryFixture.METHODS) {
                JsonNode r = api.get("/api/v1/metrics/method?" + c.query() + "&method="
                        + enc(m.className() + "." + m.methodName() + m.descriptor()) + "&root="
                        + enc(root.className() + "." + root.methodName()), 200);
                assertMetrics(r, Scope.dynamicTaskRoot(ref, root.id()), m, c.query() + " root");
                assertThat(r.get("scope").asText()).isEqualTo("root");
            }
        }
    }

    @Test
    void taskMetricsEqualCctCoreWithLabelsFromNeo4j() {
        List<TaskDefinition> definitions = List.of(TaskDefinition.prefix("cart", "com.shop.Cart.", "cart"),
                TaskDefinition.regex("io", "com\\.shop\\.(?<what>Db|Json)\\.", "io-${what}"));
        LongFunction<String> qualified = id -> QueryFixture.METHODS.stream().filter(m -> m.id() == id)
                .map(m -> m.className() + "." + m.methodName()).findFirst().orElse(null);
        // labels as the samples job stores them: per task root, the tasks the node carries and
        // its parent does not (a function of its path); the expected metrics use every label
        Cct everything = DATA.reference(List.of(key("a"), key("b"), key("c")), 0, Long.MAX_VALUE);
        TaskLabels stored = new TaskLabeller(qualified, definitions).label(everything);
        List<NodeTasks> rows = new ArrayList<>();
        int labelled = 0;
        for (int i = 1; i < everything.size(); i++) {
            labelled += stored.taskNames(i).isEmpty() ? 0 : 1;
            List<String> rooted = new ArrayList<>(stored.taskNames(i));
            rooted.removeAll(stored.taskNames(everything.parent(i)));
            if (!rooted.isEmpty()) {
                rows.add(new NodeTasks(SERVICE, everything.id(i), rooted));
            }
        }
        assertThat(rows).as("roots are fewer than labelled nodes").hasSizeLessThan(labelled);
        new GraphWriter(driver, "").writeNodeTasks(rows);

        for (String[] tasks : new String[][] {{"cart"}, {"io-Db"}, {"cart", "io-Json"}}) {
            StringBuilder q = new StringBuilder();
            for (String t : tasks) {
                q.append("&task=").append(enc(t));
            }
            for (Case c : cases()) {
                Cct ref = DATA.reference(c.executions(), c.from(), c.to());
                TaskLabels labels = new TaskLabeller(qualified, definitions).label(ref);
                Scope scope = Scope.ofTasks(labels, tasks);
                if (scope.rootSamples() == 0) {
                    continue; // the task has no samples in this selection: a 404, tested elsewhere
                }
                for (MethodRecord m : QueryFixture.METHODS) {
                    JsonNode r = api.get("/api/v1/metrics/method?" + c.query() + q + "&method="
                            + enc(m.className() + "." + m.methodName() + m.descriptor()), 200);
                    assertMetrics(r, scope, m, c.query() + " tasks " + List.of(tasks));
                    assertThat(r.get("tasks")).hasSize(tasks.length);
                }
                assertTaskTree(api.get("/api/v1/tree?" + c.query() + q, 200), scope, c.query() + " tasks "
                        + List.of(tasks));
            }
        }
        assertThat(api.get("/api/v1/metrics/method?service=shop&method=com.shop.Db.query&task=nope", 404)
                .get("error").asText()).contains("task [nope]");
    }

    /**
     * The tree of a task scope against a brute force over cct-core's tree: each listed node's total
     * is the self samples in scope in its subtree, its self its own when in scope; every node with
     * such samples is listed.
     */
    private static void assertTaskTree(JsonNode r, Scope scope, String what) {
        Cct ref = scope.tree();
        assertThat(r.get("totalSamples").asLong()).as(what).isEqualTo(scope.rootSamples());
        Map<String, long[]> got = new HashMap<>();
        List<JsonNode> stack = new ArrayList<>(List.of(r.get("root")));
        while (!stack.isEmpty()) {
            JsonNode n = stack.remove(stack.size() - 1);
            got.put(n.get("id").asText(), new long[] {n.get("self").asLong(), n.get("total").asLong()});
            n.get("children").forEach(stack::add);
        }
        int expectedNodes = 0;
        for (int i = 1; i < ref.size(); i++) {
            long total = 0;
            for (int m = i; m < ref.size(); m++) {
                boolean below = false;
                for (int a = m; a != Cct.ROOT && !below; a = ref.parent(a)) {
                    below = a == i;
                }
                if (below && scope.contains(m)) {
                    total += ref.self(m);
                }
            }
            if (total > 0) {
                expectedNodes++;
                assertThat(got.get(Long.toString(ref.id(i)))).as(what + " node " + ref.id(i))
                        .containsExactly(scope.contains(i) ? ref.self(i) : 0, total);
            }
        }
        assertThat(got).as(what).hasSize(expectedNodes + 1);
    }

    private static void assertMetrics(JsonNode r, Scope scope, MethodRecord m, String what) {
        MethodMetrics expected = MethodMetrics.of(scope, m.id());
        String as = what + " " + m.signature();
        assertThat(r.get("methodSamples").asLong()).as(as).isEqualTo(expected.time().methodSamples());
        assertThat(r.get("totalSamples").asLong()).as(as).isEqualTo(expected.time().scopeSamples());
        assertThat(r.get("selfSamples").asLong()).as(as).isEqualTo(expected.time().selfSamples());
        assertThat(r.get("methodTime").asDouble()).as(as).isEqualTo(expected.time().methodTime());
        assertThat(r.get("selfTime").asDouble()).as(as).isEqualTo(expected.time().selfTime());
        JsonNode o = r.get("metrics").get(0);
        assertThat(o.get("signature").asText()).isEqualTo(m.signature());
        assertThat(shares(o.get("callees"))).as(as + " callees").isEqualTo(expected(expected.callees(), NAMES::get));
        assertThat(shares(o.get("callers"))).as(as + " callers").isEqualTo(expected(expected.callers(), NAMES::get));
        Cct tree = scope.tree();
        assertThat(shares(o.get("threads"))).as(as + " threads")
                .isEqualTo(expected(expected.threads(), t -> tree.threadName((int) t)));
        assertThat(sites(o.get("calleeSites"))).as(as + " callee sites")
                .isEqualTo(expectedSites(CallSites.callees(scope, m.id())));
        assertThat(sites(o.get("callerSites"))).as(as + " caller sites")
                .isEqualTo(expectedSites(CallSites.callers(scope, m.id())));
    }

    /** Call sites as "method:line samples share", in the order given. */
    private static List<String> sites(JsonNode list) {
        List<String> out = new ArrayList<>();
        list.forEach(s -> out.add(s.get("method").asText() + ":" + s.get("line").asInt() + " "
                + s.get("samples").asLong() + " " + s.get("share").asDouble()));
        return out;
    }

    private static List<String> expectedSites(List<CallSite> sites) {
        return sites.stream().map(s -> NAMES.get(s.method()) + ":" + s.line() + " " + s.samples() + " " + s.share())
                .toList();
    }

    private static Map<String, Long> shares(JsonNode list) {
        Map<String, Long> out = new HashMap<>();
        list.forEach(s -> out.put(s.get("name").asText(), s.get("samples").asLong()));
        return out;
    }

    private static Map<String, Long> expected(Shares s, LongFunction<String> name) {
        Map<String, Long> out = new HashMap<>();
        for (int i = 0; i < s.size(); i++) {
            out.put(name.apply(s.key(i)), s.samples(i));
        }
        return out;
    }

    @Test
    void treeJsonEqualsCctCoreNodeByNodeAndPrunes() {
        for (Case c : cases()) {
            Cct ref = DATA.reference(c.executions(), c.from(), c.to());
            JsonNode r = api.get("/api/v1/tree?" + c.query(), 200);
            assertThat(r.get("nodes").asInt()).as(c.query()).isEqualTo(ref.size());
            assertSameSubtree(r.get("root"), ref, Cct.ROOT);
            assertSameSubtree(nested(api.get("/api/v1/tree?" + c.query() + "&format=columns", 200).get("tree")), ref,
                    Cct.ROOT);

            // from a node: the same subtree; pruned: only children at or above the share, samples kept in totals
            int start = 1 + (int) (Math.abs(c.query().hashCode()) % (ref.size() - 1));
            JsonNode sub = api.get("/api/v1/tree?" + c.query() + "&node=" + ref.id(start), 200);
            assertSameSubtree(sub.get("root"), ref, start);
            JsonNode pruned = api.get("/api/v1/tree?" + c.query() + "&minShare=0.1&maxDepth=2", 200);
            long threshold = (long) Math.ceil(0.1 * ref.total(Cct.ROOT));
            assertPruned(pruned.get("root"), ref, threshold, 0, 2);

            // collapsed: lines add up to the start's total, and each path's count is its self (no pruning)
            String text = api.send("GET", "/api/v1/tree?" + c.query() + "&format=collapsed", null).body();
            Map<String, Long> lines = collapsedOf(ref);
            Map<String, Long> got = new HashMap<>();
            for (String line : text.split("\n")) {
                int sp = line.lastIndexOf(' ');
                got.merge(line.substring(0, sp), Long.parseLong(line.substring(sp + 1)), Long::sum);
            }
            assertThat(got).as(c.query()).isEqualTo(lines);
            String prunedText = api.send("GET", "/api/v1/tree?" + c.query() + "&format=collapsed&minShare=0.2", null)
                    .body();
            assertThat(prunedText.lines().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum())
                    .isEqualTo(ref.total(Cct.ROOT));
        }
    }

    @Test
    void treeOfAMethodMergesItsRecursionFreeSubtrees() {
        for (Case c : cases()) {
            Cct ref = DATA.reference(c.executions(), c.from(), c.to());
            MethodRecord m = QueryFixture.METHODS.get(4); // Db.query
            JsonNode r = api.get("/api/v1/tree?" + c.query() + "&method=" + enc("com.shop.Db.query"), 200);
            long samples = MethodTime.of(Scope.whole(ref), m.id()).methodSamples();
            assertThat(r.get("totalSamples").asLong()).as(c.query()).isEqualTo(samples);
            if (samples > 0) {
                JsonNode top = r.get("root").get("children").get(0);
                assertThat(top.get("method").asText()).isEqualTo(m.signature());
                assertThat(top.get("total").asLong()).isEqualTo(samples);
                // self of the method node: self samples of the method in recursion-free positions
                long self = 0;
                for (int i = 1; i < ref.size(); i++) {
                    if (ref.method(i) == m.id() && ref.recursiveParent(i) == Cct.NONE) {
                        self += ref.self(i);
                    }
                }
                assertThat(top.get("self").asLong()).isEqualTo(self);
            }
        }
    }

    @Test
    void rolledUpWindowsAnswerTheSameAsFineOnes() {
        JsonNode before = api.get("/api/v1/metrics/method?service=shop&method=com.shop.Db.query"
                + "&from=2026-01-04T00:00:00Z&to=2026-01-06T00:00:00Z", 200);
        Rollups.Result r = new Rollups(driver, "", Duration.ofMinutes(10))
                .rollUp(T0 + Duration.ofDays(2).toMillis());
        assertThat(r.hours()).isEqualTo(1);
        assertThat(r.days()).isEqualTo(1);
        JsonNode after = api.get("/api/v1/metrics/method?service=shop&method=com.shop.Db.query"
                + "&from=2026-01-04T00:00:00Z&to=2026-01-06T00:00:00Z", 200);
        assertThat(after).isEqualTo(before);
        JsonNode tree = api.get("/api/v1/tree?service=shop&from=2026-01-04T00:00:00Z&to=2026-01-06T00:00:00Z", 200);
        assertSameSubtree(tree.get("root"), DATA.reference(List.of(key("a"), key("b"), key("c")), 0, Long.MAX_VALUE),
                Cct.ROOT);
        // whole deployments read their own roll-ups (hour, ten minutes), other selections their instances'
        for (Case c : cases()) {
            if (c.query().contains("at=") || c.query().contains("from=")) {
                continue;
            }
            for (long[] range : new long[][] {{T0 - 3_600_000, T0 + 3_600_000}, {T0, T0 + 10 * WINDOW},
                    {T0, T0 + 4 * WINDOW}}) {
                Cct ref = DATA.reference(c.executions(), range[0], range[1]);
                for (MethodRecord m : QueryFixture.METHODS) {
                    JsonNode metrics = api.get("/api/v1/metrics/method?" + c.query() + "&method="
                            + enc(m.className() + "." + m.methodName() + m.descriptor()) + "&from=" + iso(range[0])
                            + "&to=" + iso(range[1]), 200);
                    assertMetrics(metrics, Scope.whole(ref), m, c.query() + " rolled up, from " + iso(range[0]));
                }
            }
        }
    }

    /** The nested form ({id, method, line, self, total, children}) of the columns of format=columns. */
    private static JsonNode nested(JsonNode columns) {
        return io.cctflow.query.api.TreeColumnsTest.decode(columns);
    }

    private static void assertSameSubtree(JsonNode node, Cct ref, int n) {
        assertThat(node.get("total").asLong()).isEqualTo(ref.total(n));
        assertThat(node.get("self").asLong()).isEqualTo(ref.self(n));
        assertThat(node.get("id").asText()).isEqualTo(Long.toString(ref.id(n)));
        List<Integer> children = children(ref, n);
        assertThat(node.get("children")).hasSize(children.size());
        for (JsonNode c : node.get("children")) {
            int ci = ref.indexOf(Long.parseLong(c.get("id").asText()));
            assertThat(ref.parent(ci)).isEqualTo(n);
            assertThat(c.get("method").asText()).isEqualTo(NAMES.get(ref.method(ci)));
            assertSameSubtree(c, ref, ci);
        }
    }

    private static void assertPruned(JsonNode node, Cct ref, long threshold, int depth, int maxDepth) {
        int n = ref.indexOf(Long.parseLong(node.get("id").asText()));
        assertThat(node.get("total").asLong()).isEqualTo(ref.total(n));
        long kept = children(ref, n).stream().filter(c -> ref.total(c) >= threshold && depth + 1 <= maxDepth).count();
        assertThat(node.get("children")).hasSize((int) kept);
        for (JsonNode c : node.get("children")) {
            assertPruned(c, ref, threshold, depth + 1, maxDepth);
        }
    }

    private static List<Integer> children(Cct ref, int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 1; i < ref.size(); i++) {
            if (ref.parent(i) == n && ref.total(i) > 0) {
                out.add(i);
            }
        }
        return out;
    }

    /** Brute force: per node with self samples, the path of class.method frames. */
    private static Map<String, Long> collapsedOf(Cct ref) {
        Map<String, Long> out = new HashMap<>();
        for (int i = 1; i < ref.size(); i++) {
            if (ref.self(i) == 0) {
                continue;
            }
            List<String> frames = new ArrayList<>();
            for (int a = i; a != Cct.ROOT; a = ref.parent(a)) {
                String sig = NAMES.get(ref.method(a));
                frames.add(0, sig.substring(0, sig.indexOf('(')));
            }
            out.merge(String.join(";", frames), ref.self(i), Long::sum);
        }
        return out;
    }
}
