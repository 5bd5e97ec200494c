package io.cctflow.query;

import static io.cctflow.query.QueryFixture.WINDOW;
import static io.cctflow.query.QueryFixture.enc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.core.Cct;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import io.cctflow.model.MethodRecord;
import io.cctflow.servers.TestServers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * The timeline and top-methods endpoints against cct-core computed in memory on the same random
 * samples ({@link QueryFixture}), over a real Neo4j, for every selection of {@link QueryApiTest}.
 */
class TimelineAndTopMethodsTest {
    private static final QueryFixture DATA = new QueryFixture();
    private static final Map<Long, String> NAMES = QueryFixture.signatures();
    private static Driver driver;
    private static QueryService service;
    private static QueryFixture.Api api;

    @BeforeAll
    static void start() throws Exception {
        driver = TestServers.get().newDriver();
        DATA.write(driver, 7);
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
    void timelineBucketsEqualCctCoreTreesOfTheirWindows() {
        MethodRecord method = QueryFixture.METHODS.get(4); // Db.query: deep in random stacks, recursive at times
        String selector = method.className() + "." + method.methodName();
        for (int buckets : new int[] {1, 3, 120}) {
            for (QueryApiTest.Case c : QueryApiTest.cases()) {
                JsonNode r = api.get("/api/v1/timeline?" + c.query() + "&method=" + enc(selector) + "&buckets="
                        + buckets, 200);
                long width = r.get("bucketMillis").asLong();
                JsonNode got = r.get("buckets");
                assertThat(got.size()).as(c.query()).isBetween(1, buckets);
                assertThat(width).as("a bucket holds at least one stored window").isGreaterThanOrEqualTo(WINDOW);
                long from = Instant.parse(r.get("from").asText()).toEpochMilli();
                long totalSamples = 0;
                for (int b = 0; b < got.size(); b++) {
                    Cct ref = bucketTree(c, from, width, b, got.size());
                    JsonNode bucket = got.get(b);
                    String what = c.query() + " bucket " + b + " of " + got.size();
                    assertThat(Instant.parse(bucket.get("start").asText()).toEpochMilli()).isEqualTo(from + b * width);
                    assertThat(bucket.get("samples").asLong()).as(what).isEqualTo(ref.total(Cct.ROOT));
                    assertThat(bucket.get("methodSamples").asLong()).as(what)
                            .isEqualTo(MethodTime.of(Scope.whole(ref), method.id()).methodSamples());
                    totalSamples += ref.total(Cct.ROOT);
                }
                assertThat(r.get("totalSamples").asLong()).as(c.query())
                        .isEqualTo(DATA.reference(c.executions(), c.from(), c.to()).total(Cct.ROOT))
                        .isEqualTo(totalSamples).isPositive();
            }
        }
    }

    /** cct-core's tree of the samples whose window overlaps the case and starts in bucket b (the last takes the rest). */
    private static Cct bucketTree(QueryApiTest.Case c, long from, long width, int b, int count) {
        Cct tree = new Cct();
        for (QueryFixture.Sample s : DATA.samples) {
            long start = s.windowStart();
            boolean selected = c.executions().contains(s.execution()) && start < c.to() && start + WINDOW > c.from();
            int bucket = (int) Math.min(count - 1, Math.max(0, start - from) / width);
            if (selected && bucket == b) {
                tree.addStack(s.methods(), s.lines(), s.methods().length, tree.thread(s.thread()), s.count());
            }
        }
        return tree;
    }

    @Test
    void topMethodsEqualCctCoreMethodTimeBySelfAndByMethod() {
        MethodRecord root = QueryFixture.METHODS.get(3); // Tax.rate as a dynamic root
        int longerUnions = 0;
        for (QueryApiTest.Case c : QueryApiTest.cases()) {
            Cct ref = DATA.reference(c.executions(), c.from(), c.to());
            for (boolean dynamic : new boolean[] {false, true}) {
                Scope scope = dynamic ? Scope.dynamicTaskRoot(ref, root.id()) : Scope.whole(ref);
                String scopeParam = dynamic ? "&root=" + enc(root.className() + "." + root.methodName()) : "";
                List<long[]> bySelf = expectedTop(ref, scope, true);
                List<long[]> byMethod = expectedTop(ref, scope, false);
                // both: the top 4 by self, then those of the top 4 by method not among them
                List<long[]> both = new ArrayList<>(bySelf.subList(0, Math.min(4, bySelf.size())));
                for (long[] e : byMethod.subList(0, Math.min(4, byMethod.size()))) {
                    if (both.stream().noneMatch(b -> b[2] == e[2])) {
                        both.add(e);
                    }
                }
                longerUnions += both.size() > 4 ? 1 : 0;
                for (String by : List.of("self", "method", "both")) {
                    List<long[]> expected = switch (by) {
                        case "self" -> bySelf.subList(0, Math.min(4, bySelf.size()));
                        case "method" -> byMethod.subList(0, Math.min(4, byMethod.size()));
                        default -> both;
                    };
                    JsonNode r = api.get("/api/v1/metrics/top?" + c.query() + scopeParam + "&by=" + by + "&top=4", 200);
                    String what = c.query() + scopeParam + " by " + by;
                    assertThat(r.get("by").asText()).as(what).isEqualTo(by);
                    assertThat(r.get("totalSamples").asLong()).as(what).isEqualTo(scope.rootSamples());
                    assertThat(r.get("methodCount").asInt()).as(what).isEqualTo(bySelf.size());
                    JsonNode methods = r.get("methods");
                    assertThat(methods.size()).as(what).isEqualTo(expected.size());
                    for (int k = 0; k < methods.size(); k++) {
                        long[] e = expected.get(k);
                        assertThat(methods.get(k).get("method").asText()).as(what + " #" + k).isEqualTo(NAMES.get(e[2]));
                        assertThat(methods.get(k).get("methodSamples").asLong()).as(what).isEqualTo(e[3]);
                        assertThat(methods.get(k).get("selfSamples").asLong()).as(what).isEqualTo(e[4]);
                        assertThat(methods.get(k).get("methodTime").asDouble()).as(what)
                                .isEqualTo((double) e[3] / scope.rootSamples());
                    }
                }
            }
        }
        assertThat(longerUnions).as("cases whose top 4 by self and by method differ").isPositive();
    }

    /**
     * Every method with a node in the scope, brute force from cct-core's {@link MethodTime}, as
     * {first, second, id, method samples, self samples}, in the endpoint's order: by self (or by
     * method) samples, then by the other, then by id.
     */
    private static List<long[]> expectedTop(Cct ref, Scope scope, boolean bySelf) {
        List<long[]> expected = new ArrayList<>();
        for (MethodRecord m : QueryFixture.METHODS) {
            MethodTime t = MethodTime.of(scope, m.id());
            boolean inScope = false;
            for (int i = 1; i < ref.size(); i++) {
                inScope |= scope.contains(i) && ref.method(i) == m.id();
            }
            if (inScope) {
                long first = bySelf ? t.selfSamples() : t.methodSamples();
                long second = bySelf ? t.methodSamples() : t.selfSamples();
                expected.add(new long[] {first, second, m.id(), t.methodSamples(), t.selfSamples()});
            }
        }
        expected.sort(Comparator.<long[]>comparingLong(e -> -e[0]).thenComparingLong(e -> -e[1])
                .thenComparingLong(e -> e[2]));
        return expected;
    }

    @Test
    void invalidParametersAreRefusedNamingTheParameter() {
        assertThat(api.get("/api/v1/timeline?service=shop&buckets=0", 400).get("error").asText()).contains("'buckets'");
        assertThat(api.get("/api/v1/timeline?service=shop&buckets=x", 400).get("error").asText()).contains("'buckets'");
        assertThat(api.get("/api/v1/timeline?service=shop&method=com.shop.Cart.total", 400).get("error").asText())
                .contains("'method'").contains("overloads");
        assertThat(api.get("/api/v1/timeline?service=shop&method=nodot", 400).get("error").asText()).contains("'method'");
        assertThat(api.get("/api/v1/timeline?service=shop&method=com.shop.No.such", 404).get("error").asText())
                .contains("'method'");
        assertThat(api.get("/api/v1/timeline?service=shop&bucket=3", 400).get("error").asText()).contains("'bucket'");
        assertThat(api.get("/api/v1/timeline", 400).get("error").asText()).contains("'service'");
        assertThat(api.get("/api/v1/metrics/top?service=shop&by=total", 400).get("error").asText()).contains("'by'");
        assertThat(api.get("/api/v1/metrics/top?service=shop&top=0", 400).get("error").asText()).contains("'top'");
        assertThat(api.get("/api/v1/metrics/top?service=shop&task=a&root=com.shop.Tax.rate", 400).get("error").asText())
                .contains("'task'").contains("'root'");
        assertThat(api.get("/api/v1/metrics/top?service=nope", 404).get("error").asText()).contains("nope");
    }
}
