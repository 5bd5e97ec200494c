package io.cctflow.query.api.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import io.cctflow.core.baseline.BaselineComparison;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.core.diff.CommonTree;
import io.cctflow.core.diff.DiffResult;
import io.cctflow.core.diff.Difference;
import io.cctflow.core.diff.Overlap;
import io.cctflow.core.diff.StageSummary;
import io.cctflow.core.diff.TreeDiff;
import io.cctflow.core.diff.Weight;
import io.cctflow.core.diff.WeightDifference;
import io.cctflow.core.diff.stats.Measure;
import io.cctflow.core.diff.stats.MethodChange;
import io.cctflow.core.diff.stats.MethodComparison;
import io.cctflow.core.diff.stats.MethodSamples;
import io.cctflow.core.diff.stats.ShareChange;
import io.cctflow.core.diff.stats.ShareTest;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.Scope;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.Keys;
import io.cctflow.graph.maintenance.Rollups;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.CodeClassRecord;
import io.cctflow.model.Resolution;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.QueryService;
import io.cctflow.servers.TestServers;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * {@code /api/v1/compare} over a real Neo4j filled by the graph-store writer with random stacks:
 * every number must equal cct-core's {@link TreeDiff} run in memory on the same samples.
 */
class CompareEndpointTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int ALPHABET = 12;
    private static final MethodRecord ADDED = MethodRecord.of("com.example.New", "added", "()V");

    private static Driver driver;
    private static QueryService service;
    private static final Map<Long, String> SIGNATURES = new HashMap<>();

    @BeforeAll
    static void start() throws IOException {
        TestServers servers = TestServers.get();
        driver = servers.newDriver();
        service = QueryService.start(new GraphStoreConfig(servers.neo4jUri(), servers.neo4jUser(),
                servers.neo4jPassword(), ""), "127.0.0.1", 0);
        for (int k = 0; k < ALPHABET; k++) {
            SIGNATURES.put(StoredStacks.method(k).id(), StoredStacks.method(k).signature());
        }
        SIGNATURES.put(ADDED.id(), ADDED.signature());
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.close();
        }
        if (driver != null) {
            driver.close();
        }
    }

    /**
     * Two deployments, two instances each, two windows; the second instance of v1 is the first with
     * counts within +-10 %; v2 has counts within +-50 %, 5 % of stacks with a frame replaced, and
     * calls to an added method.
     */
    private static Map<String, StoredStacks> store(long seed) {
        cleanGraph();
        Random random = new Random(seed);
        Map<String, StoredStacks> out = new HashMap<>();
        List<StoredStacks.Stack> base = StoredStacks.random(random, 300, 7, ALPHABET, 2);
        for (String instance : List.of("i1", "i2")) {
            // two instances of one deployment differ by noise only; the new deployment by more
            List<StoredStacks.Stack> own = instance.equals("i1") ? base
                    : StoredStacks.perturbed(base, random, 0.1, 0, ALPHABET);
            out.put("v1/" + instance, new StoredStacks("v1", instance).add(own));
            out.put("v2/" + instance, new StoredStacks("v2", instance)
                    .add(StoredStacks.perturbed(own, random, 0.5, 0.05, ALPHABET))
                    .add(addedCalls(random, 10)));
        }
        GraphWriter writer = new GraphWriter(driver, "");
        out.values().forEach(s -> s.write(writer));
        return out;
    }

    /** Stacks through {@link #ADDED}, called from C0.m0 at line 9 (a call site nothing else uses). */
    private static List<StoredStacks.Stack> addedCalls(Random random, int count) {
        List<StoredStacks.Stack> out = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            out.add(new StoredStacks.Stack(new MethodRecord[] {StoredStacks.method(0), ADDED,
                StoredStacks.method(1 + random.nextInt(ALPHABET - 1))}, new int[] {0, 9, 1}, 1 + random.nextInt(4),
                random.nextInt(2)));
        }
        return out;
    }

    private static JsonNode get(int expectedStatus, String query) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + service.port() + "/api/v1/compare?" + query)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("status of %s: %s", query, response.body()).isEqualTo(expectedStatus);
        return JSON.readTree(response.body());
    }

    @Test
    void deploymentsInstancesAndTimeRangesMatchCctCoreInMemory() throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            Map<String, StoredStacks> s = store(seed);
            List<StoredStacks> v1 = List.of(s.get("v1/i1"), s.get("v1/i2"));
            List<StoredStacks> v2 = List.of(s.get("v2/i1"), s.get("v2/i2"));
            JsonNode deployments = get(200, "service=shop&a.version=v1&b.version=v2&top=1000");
            assertMatches("seed " + seed + " deployments", deployments,
                    StoredStacks.treeOf(v1, 0, 2), StoredStacks.treeOf(v2, 0, 2), Weight.SELF, 1.0, 1000);
            assertMethodsMatch("seed " + seed + " deployments, instances as replicates", deployments, "instances",
                    List.of(s.get("v1/i1").tree(0, 2), s.get("v1/i2").tree(0, 2)),
                    List.of(s.get("v2/i1").tree(0, 2), s.get("v2/i2").tree(0, 2)), StoredStacks.treeOf(v1, 0, 2),
                    StoredStacks.treeOf(v2, 0, 2), 1000);
            JsonNode instances = get(200, "service=shop&version=v1&a.instance=i1&b.instance=i2&weight=total&top=1000");
            assertMatches("seed " + seed + " instances, total weight", instances,
                    s.get("v1/i1").tree(0, 2), s.get("v1/i2").tree(0, 2), Weight.TOTAL, 1.0, 1000);
            assertMethodsMatch("seed " + seed + " instances, windows as replicates", instances, "windows",
                    List.of(s.get("v1/i1").tree(0, 1), s.get("v1/i1").tree(1, 2)),
                    List.of(s.get("v1/i2").tree(0, 1), s.get("v1/i2").tree(1, 2)), s.get("v1/i1").tree(0, 2),
                    s.get("v1/i2").tree(0, 2), 1000);
            assertMatches("seed " + seed + " instance sets, top 5",
                    get(200, "service=shop&a.version=v1&a.instance=i1&a.instance=i2&b.version=v2&b.instance=i2"
                            + "&top=5"),
                    StoredStacks.treeOf(v1, 0, 2), s.get("v2/i2").tree(0, 2), Weight.SELF, 1.0, 5);
            assertMatches("seed " + seed + " time ranges, threshold",
                    get(200, "service=shop&version=v2&a.from=1970-01-01T00:00:00Z&a.to=1970-01-01T00:01:00Z"
                            + "&b.from=1970-01-01T00:01:00Z&b.to=1970-01-01T00:02:00Z&threshold=0.9&top=1000"),
                    StoredStacks.treeOf(v2, 0, 1), StoredStacks.treeOf(v2, 1, 2), Weight.SELF, 0.9, 1000);
        }
    }

    @Test
    void noiseInstancesSetTheThresholdToTheirOverlap() throws Exception {
        Map<String, StoredStacks> s = store(7);
        JsonNode body = get(200, "service=shop&a.version=v1&b.version=v2&noise.version=v1"
                + "&noise.a.instance=i1&noise.b.instance=i2&top=1000");
        double expected = Overlap.of(CommonTree.relaxed(s.get("v1/i1").tree(0, 2), s.get("v1/i2").tree(0, 2)),
                Weight.SELF);
        assertThat(body.at("/noise/source").asText()).isEqualTo("instances");
        assertThat(body.at("/noise/threshold").asDouble()).isCloseTo(expected, within(1e-12));
        assertThat(expected).isLessThan(1.0);
        assertThat(body.at("/noise/a/instances/0").asText()).isEqualTo("i1");
        assertMatches("noise", body, StoredStacks.treeOf(List.of(s.get("v1/i1"), s.get("v1/i2")), 0, 2),
                StoredStacks.treeOf(List.of(s.get("v2/i1"), s.get("v2/i2")), 0, 2), Weight.SELF, expected, 1000);
    }

    @Test
    void withoutManifestsAnAddedSubtreeIsASideEffectOfItsCaller() throws Exception {
        store(11);
        JsonNode body = get(200, "service=shop&a.version=v1&b.version=v2&top=1000");
        assertThat(body.at("/changes/manifests").asBoolean()).isFalse();
        List<JsonNode> added = new ArrayList<>();
        body.get("attributions").forEach(a -> {
            if (a.get("method").asText().equals(ADDED.signature())) {
                added.add(a);
            }
        });
        assertThat(added).as("attributions of %s", ADDED.signature()).singleElement().satisfies(a -> {
            assertThat(a.get("stage").asText()).isEqualTo("SIDE_EFFECT");
            assertThat(a.get("side").asText()).isEqualTo("b");
            assertThat(a.at("/path/0/method").asText()).isEqualTo(StoredStacks.method(0).signature());
            assertThat(a.at("/path/1/line").asInt()).isEqualTo(9);
            assertThat(a.at("/suspects/0").asText()).isEqualTo(StoredStacks.method(0).signature());
            assertThat(a.get("samples").asLong()).isPositive();
        });
    }

    @Test
    void withManifestsTheThreeStagesAttributeAddedAndModifiedCode() throws Exception {
        for (long seed = 21; seed <= 22; seed++) {
            Map<String, StoredStacks> s = store(seed);
            List<CodeClassRecord> v1 = StoredStacks.manifest("v1", ALPHABET, -1);
            List<CodeClassRecord> v2 = StoredStacks.manifest("v2", ALPHABET, 4, ADDED);
            GraphWriter writer = new GraphWriter(driver, "");
            writer.writeCode(v1);
            writer.writeCode(v2);
            ChangeList changes = ChangeList.between(StoredStacks.fingerprints(v1), StoredStacks.fingerprints(v2),
                    MethodId::ofSignature);
            assertThat(changes.added()).containsExactly(ADDED.id());
            assertThat(changes.modified()).containsExactly(StoredStacks.method(4).id());

            JsonNode body = get(200, "service=shop&a.version=v1&b.version=v2&top=1000");
            assertThat(body.at("/changes/manifests").asBoolean()).isTrue();
            assertThat(body.at("/changes/added").asInt()).isEqualTo(1);
            assertThat(body.at("/changes/modified").asInt()).isEqualTo(1);
            assertThat(body.at("/changes/deleted").asInt()).isZero();
            assertMatches("seed " + seed + " with manifests", body,
                    StoredStacks.treeOf(List.of(s.get("v1/i1"), s.get("v1/i2")), 0, 2),
                    StoredStacks.treeOf(List.of(s.get("v2/i1"), s.get("v2/i2")), 0, 2), changes, Weight.SELF, 1.0,
                    1000);
            List<JsonNode> added = new ArrayList<>();
            body.get("attributions").forEach(a -> {
                if (a.get("method").asText().equals(ADDED.signature())) {
                    added.add(a);
                }
            });
            assertThat(added).as("attributions of %s", ADDED.signature()).singleElement().satisfies(a -> {
                assertThat(a.get("stage").asText()).isEqualTo("ADDED");
                assertThat(a.get("side").asText()).isEqualTo("b");
                assertThat(a.at("/suspects/0").asText()).isEqualTo(StoredStacks.method(0).signature());
                assertThat(a.get("nodes").asInt()).isGreaterThan(1); // the added call and what it calls
            });
            body.get("attributions").forEach(a -> {
                if (a.get("stage").asText().equals("MODIFIED")) {
                    assertThat(a.get("suspects").toString()).as("MODIFIED suspects")
                            .contains(StoredStacks.method(4).signature());
                }
            });
        }
    }

    @Test
    void badParametersAre400NamingTheParameter() throws Exception {
        store(3);
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("a.version=v1&b.version=v2", "'service'");
        cases.put("service=shop&version=v1", "a.<name>");
        cases.put("service=shop&a.version=v1&b.version=v2&top=0", "'top'");
        cases.put("service=shop&a.version=v1&b.version=v2&top=1001", "'top'");
        cases.put("service=shop&a.version=v1&b.version=v2&top=many", "'top'");
        cases.put("service=shop&a.version=v1&b.version=v2&weight=heavy", "'weight'");
        cases.put("service=shop&a.version=v1&b.version=v2&threshold=1.5", "'threshold'");
        cases.put("service=shop&a.version=v1&b.version=v2&c.version=v3", "'c.version'");
        cases.put("service=shop&a.version=v1&a.version=v2&b.version=v2", "'a.version'");
        cases.put("service=shop&a.version=v1&b.version=v2&b.from=yesterday", "'b.from'");
        cases.put("service=shop&version=v1&a.from=1970-01-01T00:02:00Z&a.to=1970-01-01T00:01:00Z&b.instance=i1",
                "'a.from'");
        cases.put("service=shop&a.version=v1&b.version=v2&threshold=0.9&noise.a.instance=i1&noise.b.instance=i2",
                "'threshold'");
        cases.put("service=shop&a.version=v1&b.version=v2&noise.a.instance=i1", "'noise.b.instance'");
        cases.put("service=shop&a.version=v1&b.version=v2&noise.a.version=v1&noise.a.instance=i1"
                + "&noise.b.version=v2&noise.b.instance=i2", "'noise.a.instance'");
        for (var c : cases.entrySet()) {
            assertThat(get(400, c.getKey()).get("error").asText()).as(c.getKey()).contains(c.getValue());
        }
    }

    @Test
    void unknownEntitiesAre404() throws Exception {
        store(5);
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put("service=nope&a.version=v1&b.version=v2", "'nope'");
        cases.put("service=shop&a.version=v1&b.version=v9", "'v9'");
        cases.put("service=shop&version=v1&a.instance=i1&b.instance=i7", "'i7'");
        cases.put("service=shop&a.version=v1&b.version=v2&b.from=2020-01-01T00:00:00Z&b.to=2020-01-02T00:00:00Z",
                "side b selects no samples");
        cases.put("service=shop&a.version=v1&b.version=v2&noise.a.instance=i1&noise.b.instance=i9", "'i9'");
        for (var c : cases.entrySet()) {
            assertThat(get(404, c.getKey()).get("error").asText()).as(c.getKey()).contains(c.getValue());
        }
    }

    /** The ranked differences without their method-time significance (which follows the replicates). */
    private static List<JsonNode> withoutSignificance(JsonNode differences) {
        List<JsonNode> out = new ArrayList<>();
        differences.forEach(d -> out.add(((com.fasterxml.jackson.databind.node.ObjectNode) d.deepCopy())
                .without("methodTime")));
        return out;
    }

    private static final Comparator<StoredStacks> BY_KEY = Comparator.comparing(i -> i.execution.key());

    /** The instances of one deployment in their instance groups (the service's default number), by group key. */
    private static Map<String, List<StoredStacks>> byGroup(List<StoredStacks> instances) {
        Map<String, List<StoredStacks>> out = new TreeMap<>();
        for (StoredStacks i : instances) {
            out.computeIfAbsent(Keys.instanceGroup(i.execution.key(), Keys.DEFAULT_INSTANCE_GROUPS),
                    k -> new ArrayList<>()).add(i);
        }
        return out;
    }

    /** Rolls up every hour before 03:00 of 1970-01-01 (the stored windows lie in its first hour). */
    private static void rollUp() {
        new Rollups(driver, "", Duration.ofMinutes(10)).rollUp(3 * Resolution.HOUR.millis());
    }

    /** An empty graph with the schema in place. */
    private static void cleanGraph() {
        TestServers.get().cleanNeo4j();
        GraphSchema.ensure(driver, "");
    }

    @Test
    void wholeDeploymentsOverRolledUpHoursHaveTheirInstanceGroupsAsReplicatesAndTheSameTree() throws Exception {
        cleanGraph();
        Random random = new Random(41);
        List<StoredStacks.Stack> base = StoredStacks.random(random, 300, 7, ALPHABET, 2);
        Map<String, List<StoredStacks>> sides = new TreeMap<>();
        for (String version : List.of("v1", "v2")) {
            for (int i = 0; i < 12; i++) {
                List<StoredStacks.Stack> own = StoredStacks.perturbed(base, random, version.equals("v1") ? 0.1 : 0.5,
                        version.equals("v1") ? 0 : 0.05, ALPHABET);
                sides.computeIfAbsent(version, v -> new ArrayList<>()).add(new StoredStacks(version, "i" + i).add(own));
            }
        }
        GraphWriter writer = new GraphWriter(driver, "");
        sides.values().forEach(l -> l.forEach(i -> i.write(writer)));
        String query = "service=shop&a.version=v1&b.version=v2&from=1970-01-01T00:00:00Z&to=1970-01-01T01:00:00Z"
                + "&top=1000";
        Cct a = StoredStacks.treeOf(sides.get("v1"), 0, 2);
        Cct b = StoredStacks.treeOf(sides.get("v2"), 0, 2);
        JsonNode before = get(200, query); // fine windows: the instances are the replicates
        assertMatches("fine windows", before, a, b, Weight.SELF, 1.0, 1000);
        assertMethodsMatch("fine windows", before, "instances", // in the endpoint's order: by execution key
                sides.get("v1").stream().sorted(BY_KEY).map(i -> i.tree(0, 2)).toList(),
                sides.get("v2").stream().sorted(BY_KEY).map(i -> i.tree(0, 2)).toList(), a, b, 1000);

        rollUp();
        Map<String, List<StoredStacks>> groupsA = byGroup(sides.get("v1"));
        Map<String, List<StoredStacks>> groupsB = byGroup(sides.get("v2"));
        assertThat(groupsA.values()).as("a group of two instances or more, which has roll-ups of its own")
                .anyMatch(g -> g.size() > 1);
        JsonNode after = get(200, query); // the groups' hourly roll-ups: the groups are the replicates
        assertMatches("rolled-up hour", after, a, b, Weight.SELF, 1.0, 1000);
        assertMethodsMatch("rolled-up hour", after, "instance groups",
                groupsA.values().stream().map(g -> StoredStacks.treeOf(g, 0, 2)).toList(),
                groupsB.values().stream().map(g -> StoredStacks.treeOf(g, 0, 2)).toList(), a, b, 1000);
        for (String part : List.of("/commonTree", "/overlap", "/score", "/stages", "/a", "/b")) {
            assertThat(after.at(part)).as(part).isEqualTo(before.at(part));
        }
        assertThat(withoutSignificance(after.get("differences"))).isEqualTo(withoutSignificance(before.get("differences")));
        // one instance against a deployment: the instance offers one group, so both fall back to windows
        JsonNode mixed = get(200, "service=shop&a.version=v1&a.instance=i0&b.version=v2&from=1970-01-01T00:00:00Z"
                + "&to=1970-01-01T01:00:00Z");
        assertThat(mixed.at("/significance/unitA").asText()).isEqualTo(mixed.at("/significance/unitB").asText())
                .isIn("windows", "none");
    }

    /**
     * Instances of one JVM-to-JVM distribution: each instance's stacks weighted by its own factors
     * (log-normal, sd 0.4: what JIT and GC decisions make of one workload), each of its six
     * one-minute windows 2,000 samples drawn from them.
     */
    private static List<StoredStacks> jvms(String version, int instances, List<StoredStacks.Stack> shapes,
            Random random) {
        List<StoredStacks> out = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            double[] cumulative = new double[shapes.size()];
            double total = 0;
            for (int s = 0; s < shapes.size(); s++) {
                total += shapes.get(s).count() * Math.exp(0.4 * random.nextGaussian());
                cumulative[s] = total;
            }
            List<StoredStacks.Stack> stacks = new ArrayList<>();
            for (int w = 0; w < 6; w++) {
                long[] counts = new long[shapes.size()];
                for (int n = 0; n < 2000; n++) {
                    int at = java.util.Arrays.binarySearch(cumulative, random.nextDouble() * total);
                    counts[at < 0 ? -at - 1 : at]++;
                }
                for (int s = 0; s < shapes.size(); s++) {
                    if (counts[s] > 0) {
                        StoredStacks.Stack shape = shapes.get(s);
                        stacks.add(new StoredStacks.Stack(shape.frames(), shape.lines(), counts[s], w));
                    }
                }
            }
            out.add(new StoredStacks(version, "jvm" + i).add(stacks));
        }
        return out;
    }

    @Test
    void twoDeploymentsOfOneDistributionNameNothingByGroupsWhereTimeSlotsNameSome() throws Exception {
        cleanGraph();
        Random random = new Random(43);
        List<StoredStacks.Stack> shapes = StoredStacks.random(random, 40, 6, ALPHABET, 1);
        List<StoredStacks> v1 = jvms("v1", 16, shapes, random);
        List<StoredStacks> v2 = jvms("v2", 16, shapes, random);
        GraphWriter writer = new GraphWriter(driver, "");
        v1.forEach(i -> i.write(writer));
        v2.forEach(i -> i.write(writer));
        rollUp();
        JsonNode body = get(200, "service=shop&a.version=v1&b.version=v2&from=1970-01-01T00:00:00Z"
                + "&to=1970-01-01T01:00:00Z&top=1000");
        assertThat(body.at("/significance/unitA").asText()).isEqualTo("instance groups");
        assertThat(body.at("/significance/replicatesA").asInt()).isEqualTo(byGroup(v1).size());
        assertThat(body.at("/significance/significantMethods").asInt()).as(body.get("message").asText()).isZero();
        assertThat(body.get("message").asText()).isEqualTo("no significant change");

        // the same sides with their time slots as replicates (what a deployment's sums offered):
        // every slot holds the same JVMs, so what they differ by is taken for a change
        List<MethodSamples> slotsA = new ArrayList<>();
        List<MethodSamples> slotsB = new ArrayList<>();
        for (int w = 0; w < 6; w++) {
            slotsA.add(MethodSamples.of(StoredStacks.treeOf(v1, w, w + 1)));
            slotsB.add(MethodSamples.of(StoredStacks.treeOf(v2, w, w + 1)));
        }
        assertThat(MethodComparison.compare(slotsA, slotsB, MethodComparison.DEFAULT_LEVEL).significant())
                .as("methods named with time slots as replicates").isPositive();
    }

    @Test
    void aSideAgainstItselfSaysNoSignificantChange() throws Exception {
        store(5);
        for (String query : List.of("service=shop&version=v1&a.instance=i1&b.instance=i1",
                "service=shop&a.version=v2&b.version=v2&a.instance=i2&b.instance=i2&fdr=0.2")) {
            JsonNode body = get(200, query);
            assertThat(body.get("significant").asBoolean()).as(query).isFalse();
            assertThat(body.get("message").asText()).as(query).isEqualTo("no significant change");
            assertThat(body.at("/significance/significantMethods").asInt()).as(query).isZero();
            assertThat(body.get("methods").size()).as(query).isPositive();
            body.get("methods").forEach(m -> {
                assertThat(m.get("change").asText()).isEqualTo("UNCHANGED");
                assertThat(m.at("/methodTime/delta").asDouble()).isZero();
                assertThat(m.at("/methodTime/pValue").asDouble()).isEqualTo(1.0);
            });
        }
    }

    @Test
    void aSideOfOneWindowOfOneInstanceWithholdsTheLabels() throws Exception {
        Map<String, StoredStacks> s = store(6);
        String window = "&b.from=1970-01-01T00:00:00Z&b.to=1970-01-01T00:01:00Z";
        // b one window of one instance; a both windows of one instance, then one window too
        for (String query : List.of("service=shop&version=v1&a.instance=i1&b.instance=i2&top=1000" + window,
                "service=shop&version=v1&a.instance=i1&b.instance=i2&top=1000&a.from=1970-01-01T00:00:00Z"
                        + "&a.to=1970-01-01T00:01:00Z" + window)) {
            JsonNode body = get(200, query);
            Cct a = s.get("v1/i1").tree(0, query.contains("a.to") ? 1 : 2);
            Cct b = s.get("v1/i2").tree(0, 1);
            MethodComparison.Result expected = MethodComparison.compare(List.of(MethodSamples.of(a)),
                    List.of(MethodSamples.of(b)), MethodComparison.DEFAULT_LEVEL);
            assertThat(body.at("/significance/model").asText()).as(query).isEqualTo(MethodComparison.WITHHELD);
            assertThat(body.at("/significance/unitB").asText()).as(query).isEqualTo("none");
            assertThat(body.get("significant").asBoolean()).as(query).isFalse();
            assertThat(body.get("message").asText()).as(query).startsWith(MethodComparison.WITHHELD_MESSAGE)
                    .contains("b: one window of one instance");
            assertThat(body.get("methods").size()).as(query).isEqualTo(expected.methods().size());
            for (int i = 0; i < expected.methods().size(); i++) {
                JsonNode row = body.get("methods").get(i);
                Measure m = expected.methods().get(i).methodTime();
                assertThat(row.get("change").asText()).as(query).isEqualTo("WITHHELD");
                assertThat(row.at("/methodTime/significant").asBoolean()).as(query).isFalse();
                assertThat(row.at("/selfTime/change").asText()).as(query).isEqualTo("WITHHELD");
                // the numbers are the binomial model's, computed directly from the counts
                ShareChange binomial = ShareTest.binomial(m.change().countA(), a.total(Cct.ROOT),
                        m.change().countB(), b.total(Cct.ROOT), MethodComparison.CONFIDENCE);
                assertThat(row.at("/methodTime/pValue").asDouble()).as(query).isEqualTo(binomial.pValue());
                assertThat(row.at("/methodTime/low").asDouble()).as(query).isEqualTo(binomial.low());
            }
        }
    }

    /**
     * The method rows against {@link MethodComparison} run in memory on the replicates the endpoint
     * should have found by itself, and the labels against the signs.
     */
    private static void assertMethodsMatch(String what, JsonNode body, String unit, List<Cct> a, List<Cct> b,
            Cct mergedA, Cct mergedB, int top) {
        MethodComparison.Result expected = MethodComparison.compare(a.stream().map(MethodSamples::of).toList(),
                b.stream().map(MethodSamples::of).toList(), MethodComparison.DEFAULT_LEVEL);
        assertThat(body.at("/significance/model").asText()).as(what).isEqualTo("replicates");
        assertThat(body.at("/significance/unitA").asText()).as(what).isEqualTo(unit);
        assertThat(body.at("/significance/unitB").asText()).as(what).isEqualTo(unit);
        assertThat(body.at("/significance/replicatesA").asInt()).as(what).isEqualTo(a.size());
        assertThat(body.at("/significance/fdr").asDouble()).as(what).isEqualTo(0.05);
        assertThat(body.at("/significance/tested").asInt()).as(what).isEqualTo(expected.tested());
        assertThat(body.at("/significance/significantMethods").asInt()).as(what).isEqualTo(expected.significant());
        assertThat(body.get("significant").asBoolean()).as(what).isEqualTo(expected.anySignificant());
        JsonNode rows = body.get("methods");
        assertThat(rows.size()).as(what).isEqualTo(Math.min(top, expected.methods().size()));
        for (int i = 0; i < rows.size(); i++) {
            MethodChange e = expected.methods().get(i);
            JsonNode row = rows.get(i);
            String where = what + " row " + i;
            assertThat(row.get("method").asText()).as(where).isEqualTo(SIGNATURES.get(e.method()));
            for (String name : List.of("methodTime", "selfTime")) {
                Measure m = name.equals("methodTime") ? e.methodTime() : e.selfTime();
                JsonNode j = row.get(name);
                assertThat(j.get("countA").asLong()).as(where + name).isEqualTo(m.change().countA());
                assertThat(j.get("countB").asLong()).as(where + name).isEqualTo(m.change().countB());
                assertThat(j.get("samplesA").asLong()).as(where + name).isEqualTo(m.change().samplesA());
                assertThat(j.get("pValue").asDouble()).as(where + name).isEqualTo(m.change().pValue());
                assertThat(j.get("qValue").asDouble()).as(where + name).isEqualTo(m.qValue());
                assertThat(j.get("low").asDouble()).as(where + name).isEqualTo(m.change().low());
                assertThat(j.get("change").asText()).as(where + name).isEqualTo(m.label().name());
                assertLabelAgrees(where + name, j.get("change").asText(), j.get("significant").asBoolean(),
                        j.get("delta").asDouble());
            }
            // the contexts of a method hold its method samples, split by method path
            long sumA = 0;
            for (JsonNode c : row.get("contexts")) {
                sumA += c.get("samplesA").asLong();
                assertThat(c.get("path").get(c.get("path").size() - 1).asText()).as(where)
                        .isEqualTo(row.get("method").asText());
            }
            if (row.get("contexts").size() < 5) {
                assertThat(sumA).as(where + " contexts").isEqualTo(e.methodTime().change().countA());
            }
        }
        int byPath = CommonTree.byMethodPath(mergedA, mergedB).size();
        assertThat(body.at("/commonTree/byMethodPath/size").asInt()).as(what).isEqualTo(byPath);
        assertThat(body.at("/commonTree/byMethodPath/nodesA").asInt()).as(what).isEqualTo(mergedA.size() - 1);
        assertThat(body.at("/commonTree/byMethodPath/nodesB").asInt()).as(what).isEqualTo(mergedB.size() - 1);
        assertThat(body.at("/commonTree/byMethodPath/shareOfA").asDouble()).as(what)
                .isEqualTo((double) byPath / (mergedA.size() - 1));
        for (JsonNode d : body.get("differences")) {
            JsonNode mt = d.get("methodTime");
            assertLabelAgrees(what + " difference", mt.get("change").asText(), mt.get("significant").asBoolean(),
                    mt.get("delta").asDouble());
            assertThat(mt.get("delta").asDouble()).isCloseTo(mt.get("timeB").asDouble() - mt.get("timeA").asDouble(),
                    within(1e-15));
        }
    }

    /** REGRESSION only for a significant rise, IMPROVEMENT only for a significant fall. */
    private static void assertLabelAgrees(String what, String change, boolean significant, double delta) {
        String expected = !significant || delta == 0 ? "UNCHANGED" : delta > 0 ? "REGRESSION" : "IMPROVEMENT";
        assertThat(change).as(what + " delta " + delta).isEqualTo(expected);
    }

    /** Every number of the response against {@link TreeDiff#compare} on the in-memory trees. */
    private static void assertMatches(String what, JsonNode body, Cct a, Cct b, Weight weight, double threshold,
            int top) {
        assertMatches(what, body, a, b, ChangeList.NONE, weight, threshold, top);
    }

    private static void assertMatches(String what, JsonNode body, Cct a, Cct b, ChangeList changes, Weight weight,
            double threshold, int top) {
        DiffResult expected = TreeDiff.compare(a, b, changes, weight, threshold, top);
        assertThat(expected.weightDifferences()).as(what + ": the data must differ").isNotEmpty();
        assertThat(body.at("/a/samples").asLong()).as(what).isEqualTo(a.total(Cct.ROOT));
        assertThat(body.at("/b/samples").asLong()).as(what).isEqualTo(b.total(Cct.ROOT));
        assertThat(body.at("/a/nodes").asInt()).as(what).isEqualTo(a.size() - 1);
        assertThat(body.at("/b/nodes").asInt()).as(what).isEqualTo(b.size() - 1);
        assertThat(body.at("/commonTree/size").asInt()).as(what).isEqualTo(expected.commonTreeSize());
        assertThat(body.at("/commonTree/shareOfA").asDouble()).as(what)
                .isEqualTo((double) expected.commonTreeSize() / (a.size() - 1));
        assertThat(body.at("/commonTree/shareOfB").asDouble()).as(what)
                .isEqualTo((double) expected.commonTreeSize() / (b.size() - 1));
        assertThat(body.at("/overlap/self").asDouble()).as(what).isCloseTo(expected.overlapSelf(), within(1e-12));
        assertThat(body.at("/overlap/total").asDouble()).as(what).isCloseTo(expected.overlapTotal(), within(1e-12));
        assertThat(body.at("/score").asDouble()).as(what).isCloseTo(expected.score(), within(1e-9));
        assertThat(body.at("/weight").asText()).as(what).isEqualTo(weight.name().toLowerCase(Locale.ROOT));
        List<String> stages = new ArrayList<>();
        body.get("stages").forEach(s -> stages.add(s.get("stage").asText() + " " + s.get("subtreesA").asInt() + " "
                + s.get("nodesA").asInt() + " " + s.get("subtreesB").asInt() + " " + s.get("nodesB").asInt()));
        assertThat(stages).as(what).containsExactlyElementsOf(expected.stages().stream()
                .map((StageSummary s) -> s.stage() + " " + s.subtreesFirst() + " " + s.nodesFirst() + " "
                        + s.subtreesSecond() + " " + s.nodesSecond()).toList());

        JsonNode diffs = body.get("differences");
        assertThat(diffs.size()).as(what + ": differences").isEqualTo(expected.weightDifferences().size());
        Map<String, WeightDifference> byPath = new HashMap<>();
        for (WeightDifference w : expected.weightDifferences()) {
            byPath.put(path(a, w.nodeFirst()), w);
        }
        double previous = Double.MAX_VALUE;
        for (JsonNode d : diffs) {
            String path = path(d.get("path"));
            double delta = d.get("delta").asDouble();
            assertThat(Math.abs(delta)).as(what + ": ranked by |delta|").isLessThanOrEqualTo(previous + 1e-15);
            previous = Math.abs(delta);
            WeightDifference w = byPath.get(path);
            if (w == null) { // a tie at the cut-off: the same |delta| as the last expected one
                assertThat(Math.abs(delta)).as(what + ": " + path + " not expected")
                        .isCloseTo(Math.abs(expected.weightDifferences().get(diffs.size() - 1).delta()), within(1e-15));
                continue;
            }
            assertThat(d.get("method").asText()).isEqualTo(SIGNATURES.get(w.method()));
            assertThat(d.get("pweightA").asDouble()).as(what + path).isEqualTo(w.pweightFirst());
            assertThat(d.get("pweightB").asDouble()).as(what + path).isEqualTo(w.pweightSecond());
            assertThat(delta).as(what + path).isEqualTo(w.delta());
            long wa = weight == Weight.SELF ? a.self(w.nodeFirst()) : a.total(w.nodeFirst());
            long wb = weight == Weight.SELF ? b.self(w.nodeSecond()) : b.total(w.nodeSecond());
            assertThat(d.get("weightA").asLong()).as(what + path).isEqualTo(wa);
            assertThat(d.get("weightB").asLong()).as(what + path).isEqualTo(wb);
            MethodTime ta = MethodTime.of(Scope.whole(a), w.method());
            MethodTime tb = MethodTime.of(Scope.whole(b), w.method());
            JsonNode mt = d.get("methodTime");
            assertThat(mt.get("samplesA").asLong()).as(what + path).isEqualTo(ta.methodSamples());
            assertThat(mt.get("samplesB").asLong()).as(what + path).isEqualTo(tb.methodSamples());
            assertThat(mt.get("totalA").asLong()).as(what + path).isEqualTo(ta.scopeSamples());
            BaselineComparison arrow = BaselineComparison.of(tb.methodTime(), ta.methodTime());
            assertThat(mt.get("angle").asDouble()).as(what + path).isEqualTo(arrow.angle());
            assertThat(mt.get("colour").asText()).as(what + path)
                    .isEqualTo(String.format(Locale.ROOT, "#%06x", arrow.rgb()));
        }

        List<String> attributions = new ArrayList<>();
        body.get("attributions").forEach(x -> attributions.add(x.get("stage").asText() + " " + x.get("side").asText()
                + " " + path(x.get("path")) + " nodes " + x.get("nodes").asInt() + " samples "
                + x.get("samples").asLong()));
        List<String> expectedAttributions = new ArrayList<>();
        for (Difference d : expected.differences()) {
            Cct t = d.inSecond() ? b : a;
            expectedAttributions.add(d.stage() + " " + (d.inSecond() ? "b" : "a") + " " + path(t, d.root())
                    + " nodes " + d.nodes() + " samples " + t.total(d.root()));
        }
        if (expectedAttributions.size() <= top) {
            assertThat(attributions).as(what).containsExactlyInAnyOrderElementsOf(expectedAttributions);
        } else {
            assertThat(expectedAttributions).as(what).containsAll(attributions);
        }
    }

    private static String path(Cct tree, int node) {
        List<String> frames = new ArrayList<>();
        for (int n = node; n != Cct.ROOT; n = tree.parent(n)) {
            frames.add(0, SIGNATURES.get(tree.method(n)) + ":" + tree.callSiteLine(n));
        }
        return String.join(" > ", frames);
    }

    private static String path(JsonNode frames) {
        List<String> out = new ArrayList<>();
        frames.forEach(f -> out.add(f.get("method").asText() + ":" + f.get("line").asInt()));
        return String.join(" > ", out);
    }
}
