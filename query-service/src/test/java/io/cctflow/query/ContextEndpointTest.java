package io.cctflow.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.core.Cct;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/v1/context} decodes node ids into the paths cct-core built them from: random trees
 * with stacks 1 to 2,000 frames deep ({@link QueryFixture} with a deep maximum), each decoded path
 * compared with the path found by walking the parents in cct-core's tree of the same samples.
 */
class ContextEndpointTest {
    private static final int MAX_DEPTH = 2_000;
    private static final QueryFixture DATA = new QueryFixture(MAX_DEPTH);
    private static final Map<Long, String> NAMES = QueryFixture.signatures();
    private static QueryFixture.Served served;
    private static QueryFixture.Api api;

    @BeforeAll
    static void start() throws Exception {
        served = DATA.serve(2_000);
        api = served.api();
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    @Test
    void decodesEveryDepthFromOneToTwoThousandAsCctCoreBuiltIt() {
        Cct ref = DATA.reference(List.of(QueryFixture.key("a"), QueryFixture.key("b"), QueryFixture.key("c")),
                Long.MIN_VALUE, Long.MAX_VALUE);
        // one node of every depth (the first created), plus random others
        Map<Integer, Integer> byDepth = new java.util.TreeMap<>();
        for (int n = 1; n < ref.size(); n++) {
            byDepth.putIfAbsent(ref.depth(n), n);
        }
        assertThat(byDepth.keySet()).as("the fixture has paths of every depth 1..2000")
                .containsExactlyElementsOf(java.util.stream.IntStream.rangeClosed(1, MAX_DEPTH).boxed().toList());
        List<Integer> nodes = new ArrayList<>();
        for (int depth : List.of(1, 2, 3, 64, 65, 256, 257, 1_000, 1_999, MAX_DEPTH)) {
            nodes.add(byDepth.get(depth));
        }
        Random random = new Random(5);
        for (int i = 0; i < 40; i++) {
            nodes.add(1 + random.nextInt(ref.size() - 1));
        }
        for (int n : nodes) {
            JsonNode r = api.get("/api/v1/context?node=" + ref.id(n), 200);
            String what = "node " + ref.id(n) + " at depth " + ref.depth(n);
            assertThat(r.get("node").asText()).as(what).isEqualTo(Long.toString(ref.id(n)));
            assertThat(r.get("depth").asInt()).as(what).isEqualTo(ref.depth(n));
            assertThat(frames(r)).as(what).isEqualTo(expectedFrames(ref, n));
        }
    }

    /** Brute force: the parents walked up in cct-core's tree, then reversed, as "id depth method line". */
    private static List<String> expectedFrames(Cct ref, int node) {
        List<String> up = new ArrayList<>();
        for (int n = node; n != Cct.ROOT; n = ref.parent(n)) {
            up.add(ref.id(n) + " " + ref.depth(n) + " " + NAMES.get(ref.method(n)) + " " + ref.callSiteLine(n));
        }
        java.util.Collections.reverse(up);
        return up;
    }

    private static List<String> frames(JsonNode r) {
        List<String> out = new ArrayList<>();
        r.get("frames").forEach(f -> out.add(f.get("id").asText() + " " + f.get("depth").asInt() + " "
                + f.get("method").asText() + " " + f.get("line").asInt()));
        return out;
    }

    @Test
    void treeAndCompareResponsesCarryNodeIdsTheEndpointDecodes() {
        JsonNode tree = api.get("/api/v1/tree?service=shop&maxDepth=3", 200);
        assertThat(tree.get("context").asText()).isEqualTo("/api/v1/context?node={id}");
        JsonNode child = tree.get("root").get("children").get(0);
        String path = tree.get("context").asText().replace("{id}", child.get("id").asText());
        JsonNode decoded = api.get(path, 200);
        assertThat(decoded.get("frames")).hasSize(1);
        assertThat(decoded.get("frames").get(0).get("method").asText()).isEqualTo(child.get("method").asText());
        assertThat(decoded.get("frames").get(0).get("line").asInt()).isEqualTo(child.get("line").asInt());

        JsonNode compare = api.get("/api/v1/compare?service=shop&a.version=v1&b.version=v2&threshold=1", 200);
        assertThat(compare.get("context").asText()).isEqualTo("/api/v1/context?node={id}");
        // every node a comparison names: the ranked differences' (side a) and the attributed subtrees'
        Map<String, JsonNode> named = new java.util.LinkedHashMap<>();
        compare.get("differences").forEach(d -> named.put(d.get("nodeA").asText(), d.get("path")));
        compare.get("attributions").forEach(a -> named.put(a.get("node").asText(), a.get("path")));
        assertThat(named).as("the random sides differ").isNotEmpty();
        named.forEach((node, shown) -> {
            List<String> decodedFrames = new ArrayList<>();
            api.get("/api/v1/context?node=" + node, 200).get("frames")
                    .forEach(f -> decodedFrames.add(f.get("method").asText() + ":" + f.get("line").asInt()));
            List<String> shownFrames = new ArrayList<>();
            shown.forEach(f -> shownFrames.add(f.get("method").asText() + ":" + f.get("line").asInt()));
            assertThat(decodedFrames).as("node " + node).isEqualTo(shownFrames);
        });
    }

    @Test
    void badNodesAreRefusedNamingTheParameter() {
        assertThat(api.get("/api/v1/context", 400).get("error").asText()).contains("'node'");
        assertThat(api.get("/api/v1/context?node=abc", 400).get("error").asText()).contains("'node'");
        assertThat(api.get("/api/v1/context?node=12&service=shop", 400).get("error").asText()).contains("'service'");
        assertThat(api.get("/api/v1/context?node=12", 404).get("error").asText()).contains("'node'");
        // the root's id is no calling context either
        assertThat(api.get("/api/v1/context?node=" + io.cctflow.core.NodeId.ROOT, 404).get("error").asText())
                .contains("'node'");
    }

    @Test
    void aPathDeeperThanTheLimitIsRefusedNamingTheLimit() throws Exception {
        Cct ref = DATA.reference(List.of(QueryFixture.key("a")), Long.MIN_VALUE, Long.MAX_VALUE);
        int deep = 1;
        for (int n = 1; n < ref.size(); n++) {
            deep = ref.depth(n) > ref.depth(deep) ? n : deep;
        }
        try (QueryService small = QueryFixture.startService(Map.of(QueryServiceConfig.MAX_RESULTS, "100",
                QueryServiceConfig.PAGE_SIZE, "100"))) {
            QueryFixture.Api limited = new QueryFixture.Api(small.port(), null);
            assertThat(limited.get("/api/v1/context?node=" + ref.id(deep), 400).get("error").asText())
                    .contains("limits.max-results").contains(ref.depth(deep) + " frames");
            int shallow = ref.parent(ref.parent(deep));
            while (ref.depth(shallow) > 100) {
                shallow = ref.parent(shallow);
            }
            assertThat(limited.get("/api/v1/context?node=" + ref.id(shallow), 200).get("frames").size())
                    .isEqualTo(100);
        }
    }
}
