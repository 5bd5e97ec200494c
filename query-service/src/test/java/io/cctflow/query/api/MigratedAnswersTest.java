package io.cctflow.query.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.core.Cct;
import io.cctflow.core.MethodId;
import io.cctflow.core.diff.ChangeList;
import io.cctflow.core.metrics.MethodTime;
import io.cctflow.core.metrics.MethodTotals;
import io.cctflow.core.metrics.Scope;
import io.cctflow.core.migration.ImpactAnalysis;
import io.cctflow.core.migration.MigrationBlend;
import io.cctflow.core.migration.MigrationWeights;
import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.GraphStoreConfig;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.CodeClassRecord;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.QueryService;
import io.cctflow.query.api.compare.StoredStacks;
import io.cctflow.servers.TestServers;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/**
 * {@code migrate} on the tree, method-metrics and top-methods endpoints against cct-core's {@link
 * MigrationBlend} on random trees written to the real Neo4j: two deployments of random stacks
 * (the second perturbed, with one modified method and calls to an added one) and their
 * CodeManifests; every figure and every node's migrated flag must be the blend's.
 */
class MigratedAnswersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final int ALPHABET = 10;
    private static final int MODIFIED = 3;
    private static final MethodRecord ADDED = MethodRecord.of("com.example.New", "added", "()V");

    private static Driver driver;
    private static QueryService service;

    @BeforeAll
    static void start() throws IOException {
        TestServers servers = TestServers.get();
        driver = servers.newDriver();
        service = QueryService.start(new GraphStoreConfig(servers.neo4jUri(), servers.neo4jUser(),
                servers.neo4jPassword(), ""), "127.0.0.1", 0);
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

    /** Both deployments' trees (windows 0 and 1) and v2's stacks. */
    private record Stored(Cct v1, Cct v2, List<StoredStacks.Stack> v2Stacks) {
    }

    /** v1 and v2 (windows 0 and 1), stored. */
    private static Stored store(long seed, boolean manifests) {
        TestServers.get().cleanNeo4j();
        GraphSchema.ensure(driver, "");
        Random random = new Random(seed);
        List<StoredStacks.Stack> base = StoredStacks.random(random, 200, 6, ALPHABET, 2);
        StoredStacks v1 = new StoredStacks("v1", "i1").add(base);
        List<StoredStacks.Stack> young = new ArrayList<>();
        for (StoredStacks.Stack s : base) {
            if (random.nextInt(4) == 0) { // a young deployment: about a quarter of the stacks, perturbed
                young.add(s);
            }
        }
        for (int s = 0; s < 5; s++) {
            young.add(new StoredStacks.Stack(new MethodRecord[] {StoredStacks.method(0), ADDED,
                StoredStacks.method(1 + random.nextInt(ALPHABET - 1))}, new int[] {0, 9, 1}, 1 + random.nextInt(4),
                random.nextInt(2)));
        }
        List<StoredStacks.Stack> v2Stacks = StoredStacks.perturbed(young, random, 0.5, 0.1, ALPHABET);
        StoredStacks v2 = new StoredStacks("v2", "i1").add(v2Stacks);
        GraphWriter writer = new GraphWriter(driver, "");
        v1.write(writer);
        v2.write(writer);
        if (manifests) {
            writer.writeCode(StoredStacks.manifest("v1", ALPHABET, -1));
            writer.writeCode(StoredStacks.manifest("v2", ALPHABET, MODIFIED, ADDED));
        }
        return new Stored(StoredStacks.treeOf(List.of(v1), 0, 2), StoredStacks.treeOf(List.of(v2), 0, 2), v2Stacks);
    }

    private static ChangeList changes() {
        List<CodeClassRecord> v1 = StoredStacks.manifest("v1", ALPHABET, -1);
        List<CodeClassRecord> v2 = StoredStacks.manifest("v2", ALPHABET, MODIFIED, ADDED);
        return ChangeList.between(StoredStacks.fingerprints(v1), StoredStacks.fingerprints(v2), MethodId::ofSignature);
    }

    @Test
    void migratedAnswersEqualCctCoresBlendAndFlagEveryMigratedNode() throws Exception {
        for (long seed = 1; seed <= 3; seed++) {
            Stored stored = store(seed, true);
            for (ImpactAnalysis mode : ImpactAnalysis.values()) {
                String what = "seed " + seed + " " + mode;
                MigrationBlend blend = MigrationBlend.of(stored.v1(), changes(), mode, stored.v2());
                if (mode == ImpactAnalysis.AG) { // BA may reuse nothing here: the added method reaches most
                    assertThat(blend.migratedShare()).as(what).isGreaterThan(0);
                }

                JsonNode tree = get(200, "/api/v1/tree", "service=shop&version=v2&migrate=" + mode);
                assertSummary(what, tree.get("migration"), mode.name(), blend);
                Map<Long, JsonNode> nodes = new HashMap<>();
                collect(tree.get("root"), nodes);
                int expected = 0;
                for (int n = 0; n < blend.tree().size(); n++) {
                    if (blend.tree().total(n) == 0) {
                        continue;
                    }
                    expected++;
                    JsonNode node = nodes.get(blend.tree().id(n));
                    assertThat(node).as("%s node %d", what, n).isNotNull();
                    assertThat(node.get("self").asLong()).as(what).isEqualTo(blend.tree().self(n));
                    assertThat(node.get("total").asLong()).as(what).isEqualTo(blend.tree().total(n));
                    if (blend.phasedOut()) {
                        assertThat(node.has("migrated")).as(what).isFalse();
                        continue;
                    }
                    assertThat(node.get("migratedTotal").asLong()).as(what).isEqualTo(blend.migratedPart().total(n));
                    assertThat(node.get("migrated").asBoolean()).as(what).isEqualTo(blend.isMigrated(n));
                }
                assertThat(nodes).as(what).hasSize(expected);

                MethodRecord m = StoredStacks.method(1);
                JsonNode metrics = get(200, "/api/v1/metrics/method", "service=shop&version=v2&migrate=" + mode
                        + "&method=" + URLEncoder.encode(m.signature(), StandardCharsets.UTF_8));
                assertSummary(what, metrics.get("migration"), mode.name(), blend);
                MethodTime all = MethodTime.of(Scope.whole(blend.tree()), m.id());
                MethodTime migrated = MethodTime.of(Scope.whole(blend.migratedPart()), m.id());
                assertThat(metrics.get("methodSamples").asLong()).as(what).isEqualTo(all.methodSamples());
                assertThat(metrics.get("selfSamples").asLong()).as(what).isEqualTo(all.selfSamples());
                assertThat(metrics.get("totalSamples").asLong()).as(what).isEqualTo(blend.tree().total(Cct.ROOT));
                assertThat(metrics.get("migratedMethodSamples").asLong()).as(what).isEqualTo(migrated.methodSamples());
                assertThat(metrics.get("migratedSelfSamples").asLong()).as(what).isEqualTo(migrated.selfSamples());

                JsonNode top = get(200, "/api/v1/metrics/top", "service=shop&version=v2&by=method&top=100&migrate="
                        + mode);
                assertSummary(what, top.get("migration"), mode.name(), blend);
                MethodTotals totals = MethodTotals.of(Scope.whole(blend.tree()));
                MethodTotals migratedTotals = MethodTotals.of(Scope.whole(blend.migratedPart()));
                Map<String, Long> signatures = new HashMap<>();
                for (int k = 0; k < ALPHABET; k++) {
                    signatures.put(StoredStacks.method(k).signature(), StoredStacks.method(k).id());
                }
                signatures.put(ADDED.signature(), ADDED.id());
                for (JsonNode row : top.get("methods")) {
                    long id = signatures.get(row.get("method").asText());
                    assertThat(row.get("methodSamples").asLong()).as(what).isEqualTo(samplesOf(totals, id, true));
                    assertThat(row.get("migratedMethodSamples").asLong()).as(what)
                            .isEqualTo(samplesOf(migratedTotals, id, true));
                    assertThat(row.get("migratedSelfSamples").asLong()).as(what)
                            .isEqualTo(samplesOf(migratedTotals, id, false));
                }
            }
        }
    }

    @Test
    void offAndUnmigratableSelectionsAnswerWithMeasuredFiguresAndSayWhy() throws Exception {
        Stored stored = store(7, false);
        JsonNode off = get(200, "/api/v1/tree", "service=shop&version=v2");
        assertThat(off.at("/migration/mode").asText()).isEqualTo("off");
        assertThat(off.at("/migration/applied").asBoolean()).isFalse();
        assertThat(off.at("/migration/migratedShare").asDouble()).isZero();
        assertThat(off.get("totalSamples").asLong()).isEqualTo(stored.v2().total(Cct.ROOT));
        assertThat(off.at("/root/migrated").isMissingNode()).isTrue();

        JsonNode noManifests = get(200, "/api/v1/metrics/top", "service=shop&version=v2&migrate=AG");
        assertThat(noManifests.at("/migration/applied").asBoolean()).isFalse();
        assertThat(noManifests.at("/migration/note").asText()).contains("CodeManifest");
        assertThat(noManifests.get("totalSamples").asLong()).isEqualTo(stored.v2().total(Cct.ROOT));

        JsonNode first = get(200, "/api/v1/tree", "service=shop&version=v1&migrate=BA");
        assertThat(first.at("/migration/applied").asBoolean()).isFalse();
        assertThat(first.at("/migration/note").asText()).contains("no previous deployment");
    }

    @Test
    void aDeploymentWithEnoughSamplesOfItsOwnIsPhasedOut() throws Exception {
        Stored stored = store(8, true);
        // a second instance of v2 with 40 times the first one's samples, in its proportions
        List<StoredStacks.Stack> more = new ArrayList<>();
        for (StoredStacks.Stack s : stored.v2Stacks()) {
            more.add(new StoredStacks.Stack(s.frames(), s.lines(), 40 * s.count(), s.window()));
        }
        StoredStacks i2 = new StoredStacks("v2", "i2").add(more);
        i2.write(new GraphWriter(driver, ""));
        Cct both = StoredStacks.treeOf(List.of(new StoredStacks("v2", "i1").add(stored.v2Stacks()), i2), 0, 2);
        MigrationBlend enough = MigrationBlend.of(stored.v1(), changes(), ImpactAnalysis.AG, both);
        MigrationBlend thin = MigrationBlend.of(stored.v1(), changes(), ImpactAnalysis.AG, stored.v2());
        assertThat(enough.phasedOut()).as("cct-core's rule drops every context of both instances").isTrue();
        assertThat(thin.phasedOut()).as("and none of the young instance alone").isFalse();

        JsonNode body = get(200, "/api/v1/tree", "service=shop&version=v2&migrate=AG");
        assertThat(body.at("/migration/phasedOut").asBoolean()).isTrue();
        assertThat(body.at("/migration/applied").asBoolean()).isFalse();
        assertThat(body.at("/migration/droppedContexts").asInt()).isEqualTo(enough.droppedContexts());
        assertThat(body.at("/migration/blendedContexts").asInt()).isZero();
        assertThat(body.at("/migration/newSamples").asLong()).isEqualTo(both.total(Cct.ROOT));
        assertThat(body.get("totalSamples").asLong()).isEqualTo(both.total(Cct.ROOT));
        assertThat(body.at("/root/migrated").isMissingNode()).isTrue();
        JsonNode young = get(200, "/api/v1/tree", "service=shop&version=v2&instance=i1&migrate=AG");
        assertThat(young.at("/migration/phasedOut").asBoolean()).isFalse();
        assertThat(young.at("/migration/applied").asBoolean()).isTrue();
        assertThat(young.at("/migration/blendedContexts").asInt()).isEqualTo(thin.blendedContexts());
    }

    @Test
    void badMigrateValuesAre400NamingTheParameter() throws Exception {
        store(9, true);
        for (String query : List.of("service=shop&version=v2&migrate=ag", "service=shop&version=v2&migrate=",
                "service=shop&migrate=AG", "service=shop&version=v2&migrate=BA&format=collapsed",
                "service=shop&version=v2&migrate=BA&format=columns", "service=shop&version=v2&migrate=AG&task=cart")) {
            JsonNode body = get(400, "/api/v1/tree", query);
            assertThat(body.get("error").asText()).as(query).contains("migrate");
        }
        assertThat(get(400, "/api/v1/metrics/top", "service=shop&version=v2&migrate=XY").get("error").asText())
                .contains("migrate");
        assertThat(get(400, "/api/v1/metrics/method", "service=shop&migrate=AG&method="
                + URLEncoder.encode(StoredStacks.method(1).signature(), StandardCharsets.UTF_8))
                .get("error").asText()).contains("migrate");
    }

    private static void assertSummary(String what, JsonNode summary, String mode, MigrationBlend blend) {
        assertThat(summary.get("mode").asText()).as(what).isEqualTo(mode);
        assertThat(summary.get("applied").asBoolean()).as(what).isEqualTo(!blend.phasedOut());
        assertThat(summary.get("phasedOut").asBoolean()).as(what).isEqualTo(blend.phasedOut());
        assertThat(summary.get("previous").asText()).as(what).isEqualTo("shop@v1");
        assertThat(summary.get("migratedShare").asDouble()).as(what).isCloseTo(blend.migratedShare(), within(1e-12));
        assertThat(summary.get("newSamples").asLong()).as(what).isEqualTo(blend.newSamples());
        assertThat(summary.get("pooledNewSamples").asLong()).as(what).isEqualTo(blend.pooledNewSamples());
        assertThat(summary.get("migratedSamples").asLong()).as(what).isEqualTo(blend.reusableOldSamples());
        assertThat(summary.get("betweenDeploymentVariance").asDouble()).as(what)
                .isCloseTo(blend.betweenDeploymentVariance(), within(1e-15));
        assertThat(summary.get("blendedContexts").asInt()).as(what).isEqualTo(blend.blendedContexts());
        assertThat(summary.get("droppedContexts").asInt()).as(what).isEqualTo(blend.droppedContexts());
        assertThat(summary.get("rule").asText()).as(what).isEqualTo(MigrationWeights.RULE);
    }

    private static long samplesOf(MethodTotals totals, long id, boolean method) {
        for (int k = 0; k < totals.size(); k++) {
            if (totals.methodId(k) == id) {
                return method ? totals.methodSamples(k) : totals.selfSamples(k);
            }
        }
        return 0;
    }

    private static void collect(JsonNode node, Map<Long, JsonNode> out) {
        out.put(Long.parseLong(node.get("id").asText()), node);
        node.get("children").forEach(c -> collect(c, out));
    }

    private static JsonNode get(int expectedStatus, String path, String query) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + service.port() + path + "?" + query)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("status of %s?%s: %s", path, query, response.body())
                .isEqualTo(expectedStatus);
        return JSON.readTree(response.body());
    }
}
