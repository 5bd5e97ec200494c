package io.cctflow.query;

import static io.cctflow.query.QueryFixture.T0;
import static io.cctflow.query.QueryFixture.WINDOW;
import static io.cctflow.query.QueryFixture.enc;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.core.task.MatchType;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.TaskDefinitionRecord;
import io.cctflow.query.api.ContextEndpoint;
import io.cctflow.query.api.DeploymentsEndpoint;
import io.cctflow.query.api.InstancesEndpoint;
import io.cctflow.query.api.MethodMetricsEndpoint;
import io.cctflow.query.api.OpenApiEndpoint;
import io.cctflow.query.api.TimelineEndpoint;
import io.cctflow.query.api.TopMethodsEndpoint;
import io.cctflow.query.api.ServicesEndpoint;
import io.cctflow.query.api.TreeEndpoint;
import io.cctflow.query.api.TruncationEndpoint;
import io.cctflow.query.api.compare.CompareEndpoint;
import io.cctflow.schema.TaskDefinition;
import io.cctflow.servers.TestServers;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/** Listings, parameter errors, limits, authentication, the OpenAPI document and task definitions. */
class QueryEdgesTest {
    private static final String TOPIC = "tasks-" + UUID.randomUUID();
    private static Driver driver;
    private static QueryService service;
    private static QueryFixture.Api api;

    @BeforeAll
    static void start() throws Exception {
        driver = TestServers.get().newDriver();
        new QueryFixture().write(driver, 7);
        TestServers.get().createTopic(TOPIC, 1, Map.of("cleanup.policy", "compact"));
        service = start(Map.of());
        api = new QueryFixture.Api(service.port(), null);
    }

    private static QueryService start(Map<String, String> extra) throws Exception {
        Map<String, String> config = new java.util.HashMap<>(Map.of(
                QueryServiceConfig.PORT, "0", QueryServiceConfig.NEO4J_URI, TestServers.get().neo4jUri(),
                QueryServiceConfig.BOOTSTRAP_SERVERS, TestServers.get().kafkaBootstrapServers(),
                QueryServiceConfig.TASKS_TOPIC, TOPIC, QueryServiceConfig.ROLLUP_INTERVAL, "0"));
        config.putAll(extra);
        return QueryService.start(QueryServiceConfig.defaults().with(config));
    }

    @AfterAll
    static void stop() {
        service.close();
        driver.close();
    }

    @Test
    void listsServicesDeploymentsAndInstancesFilteredByLabels() {
        JsonNode services = api.get("/api/v1/services?label=zone%3Dy", 200).get("services");
        assertThat(services).hasSize(1);
        assertThat(services.get(0).get("versions")).hasSize(1);
        assertThat(services.get(0).get("versions").get(0).get("instances").get(0).get("instanceId").asText())
                .isEqualTo("b");
        assertThat(api.get("/api/v1/services?label=zone%3Dnowhere", 200).get("services")).isEmpty();

        JsonNode deployments = api.get("/api/v1/deployments?service=shop", 200).get("deployments");
        assertThat(deployments).hasSize(2);
        assertThat(deployments.get(0).get("version").asText()).isEqualTo("v1");
        assertThat(deployments.get(0).get("at").asText()).isEqualTo("shop@v1");
        assertThat(deployments.get(0).get("firstSample").asText()).isEqualTo(Instant.ofEpochMilli(T0).toString());
        assertThat(deployments.get(0).get("lastSample").asText())
                .isEqualTo(Instant.ofEpochMilli(T0 + 5 * WINDOW).toString());
        assertThat(deployments.get(0).get("instanceCount").asInt()).isEqualTo(2);
        assertThat(deployments.get(1).get("firstSample").asText())
                .isEqualTo(Instant.ofEpochMilli(T0 + 5 * WINDOW).toString());
        assertThat(api.get("/api/v1/deployments?service=shop&label=zone%3Dy", 200).get("deployments")).hasSize(1);

        assertThat(ids(api.get("/api/v1/instances?service=shop&label=zone%3Dx", 200))).containsExactly("a", "c");
        assertThat(ids(api.get("/api/v1/instances?at=shop%40v1", 200))).containsExactly("a", "b");
        assertThat(ids(api.get("/api/v1/instances?service=shop&version=v2", 200))).containsExactly("c");
    }

    @Test
    void listingsArePagedWithTheirTotal() {
        List<String> seen = new ArrayList<>();
        Integer offset = 0;
        int pages = 0;
        while (offset != null) {
            JsonNode page = api.get("/api/v1/services?limit=1&offset=" + offset, 200);
            assertThat(page.get("total").asInt()).isEqualTo(3);
            assertThat(page.get("limit").asInt()).isEqualTo(1);
            JsonNode version = page.get("services").get(0).get("versions").get(0);
            assertThat(version.get("instances")).hasSize(1);
            assertThat(version.get("instanceCount").asInt()).isEqualTo(version.get("version").asText().equals("v1") ? 2 : 1);
            seen.add(version.get("instances").get(0).get("instanceId").asText());
            offset = page.get("next").isNull() ? null : page.get("next").asInt();
            pages++;
        }
        assertThat(seen).containsExactly("a", "b", "c");
        assertThat(pages).isEqualTo(3);
        assertThat(api.get("/api/v1/services?offset=3", 200).get("services")).isEmpty();

        JsonNode first = api.get("/api/v1/instances?service=shop&limit=2", 200);
        assertThat(ids(first)).containsExactly("a", "b");
        assertThat(first.get("total").asInt()).isEqualTo(3);
        assertThat(first.get("next").asInt()).isEqualTo(2);
        JsonNode last = api.get("/api/v1/instances?service=shop&limit=2&offset=2", 200);
        assertThat(ids(last)).containsExactly("c");
        assertThat(last.get("next").isNull()).isTrue();

        JsonNode deployments = api.get("/api/v1/deployments?service=shop&limit=1&offset=1", 200);
        assertThat(deployments.get("total").asInt()).isEqualTo(2);
        assertThat(deployments.get("deployments")).hasSize(1);
        assertThat(deployments.get("deployments").get(0).get("version").asText()).isEqualTo("v2");

        assertThat(api.get("/api/v1/services?limit=0", 400).get("error").asText()).contains("parameter 'limit'");
        assertThat(api.get("/api/v1/instances?service=shop&limit=10001", 400).get("error").asText())
                .contains("parameter 'limit' must be a whole number in [1, 10000]");
        assertThat(api.get("/api/v1/deployments?service=shop&offset=-1", 400).get("error").asText())
                .contains("parameter 'offset'");
    }

    private static List<String> ids(JsonNode response) {
        List<String> out = new ArrayList<>();
        response.get("instances").forEach(i -> out.add(i.get("instanceId").asText()));
        return out;
    }

    @Test
    void eachMistakeIsA400Or404ThatNamesIt() {
        String m = "&method=com.shop.Db.query";
        Object[][] cases = {
            {"/api/v1/metrics/method?service=shop", 400, "missing required parameter 'method'"},
            {"/api/v1/metrics/method?method=com.shop.Db.query", 400, "'service' (or 'at=service@version')"},
            {"/api/v1/metrics/method?service=shop" + m + "&from=yesterday", 400, "parameter 'from' must be an ISO-8601"},
            {"/api/v1/metrics/method?service=shop" + m + "&form=2026-01-01T00:00:00Z", 400, "unknown parameter 'form'"},
            {"/api/v1/metrics/method?service=shop" + m + "&at=shop", 400, "parameter 'at' must be service@version"},
            {"/api/v1/metrics/method?service=shop" + m + "&at=shop%40v1&from=2026-01-05T00:00:00Z", 400, "either 'at' or 'from'/'to'"},
            {"/api/v1/metrics/method?service=shop" + m + "&at=other%40v1", 400, "'at' names service 'other'"},
            {"/api/v1/metrics/method?at=shop%40v9" + m, 404, "unknown deployment 'shop@v9'"},
            {"/api/v1/metrics/method?service=shop" + m + "&task=x&root=com.shop.Db.query", 400, "'task' and 'root' exclude"},
            {"/api/v1/metrics/method?service=shop" + m + "&root=com.shop.Cart.total", 400, "parameter 'root' names 2 overloads"},
            {"/api/v1/metrics/method?service=shop" + m + "&root=nodot", 400, "parameter 'root' must be"},
            {"/api/v1/metrics/method?service=shop&method=com.shop.No.such", 404, "unknown method 'com.shop.No.such'"},
            {"/api/v1/metrics/method?service=nope" + m, 404, "unknown service 'nope'"},
            {"/api/v1/metrics/method?service=shop&version=v7" + m, 404, "has no version 'v7'"},
            {"/api/v1/metrics/method?service=shop&instance=ghost" + m, 404, "has no instance 'ghost'"},
            {"/api/v1/metrics/method?service=shop" + m + "&label=zone", 400, "parameter 'label' must be key=value"},
            {"/api/v1/metrics/method?service=shop" + m + "&top=0", 400, "parameter 'top' must be a whole number"},
            {"/api/v1/metrics/method?service=shop" + m + "&from=2026-01-06T00:00:00Z&to=2026-01-05T00:00:00Z", 400, "must be before 'to'"},
            {"/api/v1/tree?service=shop&minShare=2", 400, "parameter 'minShare' must be a number in [0.0, 1.0]"},
            {"/api/v1/tree?service=shop&maxDepth=-1", 400, "parameter 'maxDepth'"},
            {"/api/v1/tree?service=shop&format=xml", 400, "parameter 'format' must be one of [json, collapsed, columns]"},
            {"/api/v1/tree?service=shop&node=abc", 400, "parameter 'node' must be a node id"},
            {"/api/v1/tree?service=shop&node=12345", 404, "node 12345 (parameter 'node')"},
            {"/api/v1/tree?service=shop&node=1&method=com.shop.Db.query", 400, "'node' and 'method' exclude"},
            {"/api/v1/deployments", 400, "missing required parameter 'service'"},
            {"/api/v1/deployments?service=nope", 404, "unknown service 'nope'"},
            {"/api/v1/services?label=x", 400, "parameter 'label' must be key=value"},
            {"/api/v1/nothing", 404, "no such endpoint"},
            {"/api/v1/tasks/none", 404, "unknown task definition 'none'"},
        };
        for (Object[] c : cases) {
            JsonNode body = api.get((String) c[0], (Integer) c[1]);
            assertThat(body.get("error").asText()).as((String) c[0]).contains((String) c[2]);
            assertThat(body.toString()).doesNotContain("Exception").doesNotContain("\tat ");
        }
        HttpResponse<String> post = api.send("POST", "/api/v1/services", "{}");
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.body()).contains("use GET");
    }

    @Test
    void limitsAreEnforcedWithTheirNames() throws Exception {
        try (QueryService limited = start(Map.of(QueryServiceConfig.MAX_RANGE, "1h", QueryServiceConfig.MAX_WINDOWS,
                "3", QueryServiceConfig.MAX_TREE_NODES, "2", QueryServiceConfig.MAX_RESULTS, "1"))) {
            QueryFixture.Api small = new QueryFixture.Api(limited.port(), null);
            assertThat(small.get("/api/v1/metrics/method?service=shop&method=com.shop.Db.query"
                    + "&from=2026-01-01T00:00:00Z&to=2026-01-06T00:00:00Z", 400).get("error").asText())
                    .contains("limits.max-range");
            assertThat(small.get("/api/v1/metrics/method?service=shop&method=com.shop.Db.query", 400)
                    .get("error").asText()).contains("limits.max-windows = 3");
            assertThat(small.get("/api/v1/tree?service=shop&instance=a&from=2026-01-05T00:00:00Z"
                    + "&to=2026-01-05T00:01:00Z", 400).get("error").asText()).contains("limits.max-tree-nodes = 2");
            JsonNode page = small.get("/api/v1/instances?service=shop", 200); // the page size is capped
            assertThat(page.get("instances")).hasSize(1);
            assertThat(page.get("total").asInt()).isEqualTo(3);
            assertThat(small.get("/api/v1/instances?service=shop&limit=2", 400).get("error").asText())
                    .contains("parameter 'limit' must be a whole number in [1, 1]");
            JsonNode one = small.get("/api/v1/metrics/method?service=shop&instance=a&method=com.shop.Main.main"
                    + "&from=2026-01-05T00:00:00Z&to=2026-01-05T00:01:00Z", 200);
            assertThat(one.get("metrics").get(0).get("callees").size()).isLessThanOrEqualTo(1);
        }
        try (QueryService tight = start(Map.of(QueryServiceConfig.MAX_LOADED_NODES, "1"))) {
            // refused before the tree is built, however hard the request would prune it
            assertThat(new QueryFixture.Api(tight.port(), null).get("/api/v1/tree?service=shop&minShare=0.9", 400)
                    .get("error").asText()).contains("limits.max-loaded-nodes = 1");
        }
    }

    @Test
    void aConfiguredBearerTokenIsRequiredEverywhereAndWritesNeedTheWriteToken() throws Exception {
        String topic = "auth-" + UUID.randomUUID(); // the task written here stays out of the tasks test's topic
        TestServers.get().createTopic(topic, 1, Map.of("cleanup.policy", "compact"));
        try (QueryService secured = start(Map.of(QueryServiceConfig.AUTH_TOKEN, "s3cret",
                QueryServiceConfig.AUTH_WRITE_TOKEN, "wr1te", QueryServiceConfig.TASKS_TOPIC, topic))) {
            QueryFixture.Api anonymous = new QueryFixture.Api(secured.port(), null);
            for (String path : List.of("/api/v1/services", "/metrics", OpenApiEndpoint.PATH, "/api/v1/tasks",
                    "/api/v1/nothing")) {
                HttpResponse<String> none = anonymous.send("GET", path, null);
                assertThat(none.statusCode()).as(path).isEqualTo(401);
                assertThat(none.body()).as(path).contains("Authorization: Bearer");
                assertThat(none.headers().firstValue("WWW-Authenticate")).as(path)
                        .hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
            }
            assertThat(new QueryFixture.Api(secured.port(), "wrong").send("GET", "/metrics", null).statusCode())
                    .isEqualTo(401);
            QueryFixture.Api reader = new QueryFixture.Api(secured.port(), "s3cret");
            assertThat(reader.get("/api/v1/services", 200).get("services")).hasSize(1);
            assertThat(reader.send("GET", "/metrics", null).statusCode()).isEqualTo(200);

            String task = "{\"id\":\"auth\",\"matchType\":\"PREFIX\",\"pattern\":\"com.x.\",\"nameTemplate\":\"x\"}";
            HttpResponse<String> readerWrites = reader.send("POST", "/api/v1/tasks", task);
            assertThat(readerWrites.statusCode()).isEqualTo(403);
            assertThat(readerWrites.body()).contains("auth.write-token");
            assertThat(readerWrites.headers().firstValue("WWW-Authenticate")).as("another token would help")
                    .hasValueSatisfying(v -> assertThat(v).contains("error=\"insufficient_scope\""));
            assertThat(anonymous.send("DELETE", "/api/v1/tasks/auth", null).statusCode()).isEqualTo(401);
            QueryFixture.Api writer = new QueryFixture.Api(secured.port(), "wr1te");
            assertThat(writer.get("/api/v1/tasks", 200).get("tasks")).isNotNull(); // the write token reads too
            HttpResponse<String> written = writer.send("POST", "/api/v1/tasks", task);
            assertThat(written.statusCode()).as(written.body()).isEqualTo(202);
        }
        try (QueryService readOnly = start(Map.of(QueryServiceConfig.AUTH_TOKEN, "s3cret"))) {
            HttpResponse<String> refused = new QueryFixture.Api(readOnly.port(), "s3cret").send("POST", "/api/v1/tasks",
                    "{}");
            assertThat(refused.statusCode()).isEqualTo(403);
            assertThat(refused.body()).contains("writes are disabled");
            assertThat(refused.headers().firstValue("WWW-Authenticate")).as("no token would help").isEmpty();
        }
        assertThat(api.get("/api/v1/services", 200).get("services")).hasSize(1); // off by default
    }

    @Test
    void theOpenApiDocumentDescribesEveryEndpointAndParameter() {
        JsonNode doc = api.get(OpenApiEndpoint.PATH, 200);
        assertThat(doc.get("openapi").asText()).startsWith("3.");
        Set<String> paths = new HashSet<>();
        doc.get("paths").fieldNames().forEachRemaining(paths::add);
        assertThat(service.routes()).isNotEmpty();
        assertThat(paths).containsAll(service.routes());
        Map<String, Set<String>> accepted = Map.of(
                "/api/v1/context", ContextEndpoint.PARAMS, "/api/v1/services", ServicesEndpoint.PARAMS, "/api/v1/deployments", DeploymentsEndpoint.PARAMS,
                "/api/v1/instances", InstancesEndpoint.PARAMS, "/api/v1/metrics/method", MethodMetricsEndpoint.PARAMS,
                "/api/v1/tree", TreeEndpoint.PARAMS, "/api/v1/compare", CompareEndpoint.PARAMS,
                "/api/v1/timeline", TimelineEndpoint.PARAMS, "/api/v1/metrics/top", TopMethodsEndpoint.PARAMS,
                "/api/v1/truncation", TruncationEndpoint.PARAMS);
        accepted.forEach((path, params) -> {
            Set<String> documented = new HashSet<>();
            doc.get("paths").get(path).get("get").get("parameters").forEach(p -> documented.add(p.get("name").asText()));
            assertThat(documented).as(path).isEqualTo(params);
        });
        assertThat(doc.get("paths").get("/api/v1/tasks/{id}").has("delete")).isTrue();
    }

    @Test
    void taskDefinitionsArePublishedValidatedListedAndDeleted() {
        String good = "{\"id\":\"checkout\",\"service\":\"shop\",\"matchType\":\"REGEX\","
                + "\"pattern\":\"com\\\\.shop\\\\.(?<what>Cart)\\\\.\",\"nameTemplate\":\"shop-${what}\"}";
        HttpResponse<String> created = api.send("POST", "/api/v1/tasks", good);
        assertThat(created.statusCode()).as(created.body()).isEqualTo(202);

        HttpResponse<String> badRegex = api.send("POST", "/api/v1/tasks",
                "{\"id\":\"bad\",\"matchType\":\"REGEX\",\"pattern\":\"(\",\"nameTemplate\":\"t\"}");
        assertThat(badRegex.statusCode()).isEqualTo(400);
        assertThat(badRegex.body()).contains("invalid regular expression");
        // patterns a linear-time engine cannot match are refused with the reason, never sent to the job
        HttpResponse<String> lookBehind = api.send("POST", "/api/v1/tasks",
                "{\"id\":\"lb\",\"matchType\":\"REGEX\",\"pattern\":\"(?<=x)a\",\"nameTemplate\":\"t\"}");
        assertThat(lookBehind.statusCode()).isEqualTo(400);
        assertThat(lookBehind.body()).contains("look-around at index 0").contains("RE2 syntax");
        HttpResponse<String> backReference = api.send("POST", "/api/v1/tasks",
                "{\"id\":\"br\",\"matchType\":\"REGEX\",\"pattern\":\"(a)\\\\1\",\"nameTemplate\":\"t\"}");
        assertThat(backReference.statusCode()).isEqualTo(400);
        assertThat(backReference.body()).contains("invalid escape sequence");
        HttpResponse<String> badGroup = api.send("POST", "/api/v1/tasks",
                "{\"id\":\"bad\",\"matchType\":\"REGEX\",\"pattern\":\"a\",\"nameTemplate\":\"${g}\"}");
        assertThat(badGroup.body()).contains("no group named 'g'");
        assertThat(api.send("POST", "/api/v1/tasks", "{\"id\":\"x\",\"matchType\":\"GLOB\",\"pattern\":\"a\","
                + "\"nameTemplate\":\"t\"}").body()).contains("field 'matchType' must be PREFIX or REGEX");
        assertThat(api.send("POST", "/api/v1/tasks", "{\"id\":\"x\",\"pattern\":\"a\"}").body())
                .contains("missing field 'matchType'");
        assertThat(api.send("POST", "/api/v1/tasks", "not json").body()).contains("not valid JSON");
        assertThat(api.send("POST", "/api/v1/tasks", "{\"id\":\"x\",\"colour\":\"red\"}").body())
                .contains("unknown field 'colour'");
        assertThat(api.send("PUT", "/api/v1/tasks/checkout", good).statusCode()).isEqualTo(404); // not accepted yet

        // the samples job accepts it and stores it (done here with the graph-store writer, as the job does)
        new GraphWriter(driver, "").writeTaskDefinitions(List.of(new TaskDefinitionRecord("checkout", "shop",
                MatchType.REGEX, "com\\.shop\\.(?<what>Cart)\\.", "shop-${what}", 1)));
        JsonNode listed = api.get("/api/v1/tasks?service=shop", 200).get("tasks");
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).get("nameTemplate").asText()).isEqualTo("shop-${what}");
        assertThat(api.get("/api/v1/tasks?service=other", 200).get("tasks")).isEmpty();
        assertThat(api.get("/api/v1/tasks/checkout", 200).get("pattern").asText()).isEqualTo("com\\.shop\\.(?<what>Cart)\\.");
        assertThat(api.send("POST", "/api/v1/tasks", good).statusCode()).isEqualTo(409);
        HttpResponse<String> changed = api.send("PUT", "/api/v1/tasks/checkout", "{\"matchType\":\"PREFIX\","
                + "\"pattern\":\"com.shop.Cart.\",\"nameTemplate\":\"cart\"}");
        assertThat(changed.statusCode()).as(changed.body()).isEqualTo(202);
        assertThat(api.send("DELETE", "/api/v1/tasks/checkout", null).statusCode()).isEqualTo(202);

        List<ConsumerRecord<byte[], byte[]>> records = readTopic(3);
        assertThat(records).allSatisfy(r -> assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo("checkout"));
        TaskDefinition first = decode(records.get(0));
        assertThat(first.getMatchType().name()).isEqualTo("REGEX");
        assertThat(first.getService()).isEqualTo("shop");
        assertThat(first.getNameTemplate()).isEqualTo("shop-${what}");
        assertThat(decode(records.get(1)).getPattern()).isEqualTo("com.shop.Cart.");
        assertThat(records.get(2).value()).isNull(); // the tombstone
    }

    private static TaskDefinition decode(ConsumerRecord<byte[], byte[]> r) {
        try {
            return TaskDefinition.fromByteBuffer(ByteBuffer.wrap(r.value()));
        } catch (java.io.IOException e) {
            throw new AssertionError("not a single-object TaskDefinition", e);
        }
    }

    private static List<ConsumerRecord<byte[], byte[]>> readTopic(int expected) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestServers.get().kafkaBootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(TOPIC));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (out.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(500)).forEach(out::add);
            }
        }
        assertThat(out).as("records on " + TOPIC).hasSize(expected);
        return out;
    }
}
