package io.cctflow.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cctflow.query.api.DeploymentsEndpoint;
import io.cctflow.query.api.InstancesEndpoint;
import io.cctflow.query.api.MethodMetricsEndpoint;
import io.cctflow.query.api.ServicesEndpoint;
import io.cctflow.query.api.TreeEndpoint;
import io.cctflow.query.api.compare.CompareEndpoint;
import io.cctflow.servers.TestServers;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.neo4j.driver.Driver;

/**
 * Generated hostile requests against the real HTTP API over real Neo4j and Kafka: whatever the
 * parameters and bodies (strings, unicode, numbers, dates, huge values, deep JSON), the answer is
 * never a 5xx, always a JSON body for JSON endpoints, and always arrives within the client's
 * timeout (a hang fails the property).
 */
class HostileInputTest {
    private static final String TOPIC = "hostile-tasks-" + UUID.randomUUID();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final Map<String, Set<String>> ENDPOINTS = Map.of(
            "/api/v1/services", ServicesEndpoint.PARAMS, "/api/v1/deployments", DeploymentsEndpoint.PARAMS,
            "/api/v1/instances", InstancesEndpoint.PARAMS, "/api/v1/metrics/method", MethodMetricsEndpoint.PARAMS,
            "/api/v1/tree", TreeEndpoint.PARAMS, "/api/v1/compare", CompareEndpoint.PARAMS,
            "/api/v1/tasks", Set.of("service"), "/api/v1/openapi.json", Set.of());
    /** Values that pass the first checks, so generated requests reach the deeper code. */
    private static final List<String> PLAUSIBLE = List.of("shop", "v1", "v2", "a", "b", "c", "com.shop.Db.query",
            "com.shop.Main.main", "shop@v1", "zone=x", "json", "collapsed", "self", "total", "0.5", "3",
            "2026-01-05T00:00:00Z", "2026-01-05T00:03:00Z");
    private static Driver driver;
    private static QueryService service;
    private static String base;

    @BeforeContainer
    static void start() throws Exception {
        driver = TestServers.get().newDriver();
        new QueryFixture().write(driver, 5);
        TestServers.get().createTopic(TOPIC, 1, Map.of("cleanup.policy", "compact"));
        service = QueryService.start(QueryServiceConfig.defaults().with(Map.of(QueryServiceConfig.PORT, "0",
                QueryServiceConfig.NEO4J_URI, TestServers.get().neo4jUri(),
                QueryServiceConfig.BOOTSTRAP_SERVERS, TestServers.get().kafkaBootstrapServers(),
                QueryServiceConfig.TASKS_TOPIC, TOPIC, QueryServiceConfig.ROLLUP_INTERVAL, "0")));
        base = "http://127.0.0.1:" + service.port();
    }

    @AfterContainer
    static void stop() {
        if (service != null) {
            service.close();
        }
        if (driver != null) {
            driver.close();
        }
    }

    @Property(tries = 400)
    void generatedQueryParametersNeverGiveA5xx(@ForAll("queries") String pathAndQuery) {
        assertAnswered("GET", pathAndQuery, null);
    }

    @Property(tries = 150)
    void generatedTaskBodiesNeverGiveA5xx(@ForAll("methods") String method, @ForAll("taskPaths") String path,
            @ForAll("bodies") String body) {
        assertAnswered(method, path, body);
    }

    /**
     * An answer given before the body is read (405 for the method, 400 for a path Jetty refuses)
     * reaches the client whole: the server reads and drops the unread body (up to a bound) before
     * answering, so it never closes the connection under the client's write.
     */
    @Example
    void earlyAnswersToLargeBodiesReachTheClient() {
        String large = "{\"id\": \"" + "x".repeat(300_000) + "\"}";
        HttpResponse<String> patch = send("PATCH", "/api/v1/tasks/t", large);
        assertThat(patch.statusCode()).isEqualTo(405);
        assertThat(patch.body()).contains("not allowed");
        HttpResponse<String> badPath = send("POST", "/api/v1/tasks/%00%01x", large);
        assertThat(badPath.statusCode()).isBetween(400, 499);
        assertThat(badPath.body()).contains("\"error\"");
    }

    private static void assertAnswered(String method, String pathAndQuery, String body) {
        HttpResponse<String> r = send(method, pathAndQuery, body);
        assertThat(r.statusCode()).as(method + " " + pathAndQuery + " -> " + r.body()).isLessThan(500);
        if (!pathAndQuery.contains("format=collapsed") || r.statusCode() != 200) {
            JsonNode parsed;
            try {
                parsed = JSON.readTree(r.body());
            } catch (IOException e) {
                throw new AssertionError(method + " " + pathAndQuery + ": not JSON: " + r.body(), e);
            }
            if (r.statusCode() >= 400) {
                assertThat(parsed.get("error").asText()).as(pathAndQuery).isNotBlank()
                        .doesNotContain("\tat ").doesNotContain("Exception");
            }
        }
    }

    private static HttpResponse<String> send(String method, String pathAndQuery, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(Duration.ofSeconds(60)) // a hang fails the property instead of the build
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            try {
                return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException closedUnderUs) {
                // A pooled keep-alive connection may be closed by the server between two requests;
                // the JDK client retries only GETs on another. The request itself must still be
                // answered: sent again on a connection of its own, a second silence fails.
                // TODO: CI saw this on a PUT answered 405 (1 in a few hundred requests, not
                // reproduced with its seed): which earlier answer closes the connection is not known.
                return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()
                        .send(request, HttpResponse.BodyHandlers.ofString());
            }
        } catch (IOException e) {
            throw new AssertionError(method + " " + pathAndQuery + ": no answer: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Provide
    Arbitrary<String> queries() {
        Arbitrary<String> endpoint = Arbitraries.of(List.copyOf(ENDPOINTS.keySet()));
        return endpoint.flatMap(path -> {
            List<String> names = new ArrayList<>(ENDPOINTS.get(path));
            names.add("bogus");
            Arbitrary<String> name = Arbitraries.frequencyOf(
                    Tuple.of(9, Arbitraries.of(names)), Tuple.of(1, hostileValue()));
            Arbitrary<String> pair = Combinators.combine(name, value()).as((n, v) -> enc(n) + "=" + enc(v));
            return pair.list().ofMaxSize(8).map(pairs -> path + (pairs.isEmpty() ? "" : "?" + String.join("&", pairs)));
        });
    }

    /** Mostly plausible values with a hostile one now and then. */
    private static Arbitrary<String> value() {
        return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.of(PLAUSIBLE)),
                Tuple.of(2, hostileValue()));
    }

    private static Arbitrary<String> hostileValue() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(40), // any code point, surrogates and controls included
                Arbitraries.strings().withCharRange('\u0000', '\u007f').ofMinLength(1000).ofMaxLength(6000),
                Arbitraries.longs().map(v -> Long.toString(v)),
                Arbitraries.doubles().map(v -> Double.toString(v)),
                Arbitraries.of("NaN", "-Infinity", "Infinity", "1e309", "-0", "0x10", "99999999999999999999999",
                        "-9223372036854775808", "18446744073709551615", "", " ", "%", "%zz", "\u0000", "../..",
                        "' OR 1=1 --", "$x", "MATCH (n) DETACH DELETE n", "shop@", "@v1", "=", "zone="),
                Arbitraries.integers().between(-1_000_000_000, 1_000_000_000).map(HostileInputTest::instantOfYear),
                Arbitraries.longs().between(0, 253_402_300_799_999L)
                        .map(ms -> java.time.Instant.ofEpochMilli(ms).toString()));
    }

    private static String instantOfYear(int year) {
        String y = Math.abs(year) > 9999 ? (year < 0 ? "-" : "+") + Math.abs(year) : String.format("%04d", year);
        return y + "-01-01T00:00:00Z";
    }

    @Provide
    Arbitrary<String> methods() {
        return Arbitraries.of("POST", "PUT", "DELETE", "GET", "PATCH");
    }

    @Provide
    Arbitrary<String> taskPaths() {
        return Arbitraries.oneOf(Arbitraries.just("/api/v1/tasks"),
                Arbitraries.strings().alpha().numeric().withChars("-_.~").ofMinLength(1).ofMaxLength(30)
                        .map(id -> "/api/v1/tasks/" + id),
                hostileValue().map(id -> "/api/v1/tasks/" + enc(id)));
    }

    @Provide
    Arbitrary<String> bodies() {
        Arbitrary<String> field = Arbitraries.of("id", "service", "matchType", "pattern", "nameTemplate", "colour");
        Arbitrary<Object> fieldValue = Arbitraries.oneOf(hostileValue().map(v -> (Object) v),
                Arbitraries.of("PREFIX", "REGEX", "regex", "(a+)+$", "(?<x>a)\\k<x>", "(?<=a)b", "t-${x}", "${",
                        "com.shop."),
                Arbitraries.longs().map(v -> (Object) v), Arbitraries.just((Object) List.of(1, 2)),
                Arbitraries.just((Object) Map.of("nested", "object")));
        Arbitrary<String> objects = Combinators.combine(field, fieldValue).as(Map::entry).list().ofMaxSize(7)
                .map(entries -> {
                    Map<String, Object> m = new java.util.LinkedHashMap<>();
                    entries.forEach(e -> m.put(e.getKey(), e.getValue()));
                    try {
                        return JSON.writeValueAsString(m);
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
        return Arbitraries.oneOf(objects, hostileValue(),
                Arbitraries.integers().between(1, 20_000).map(n -> "[".repeat(n) + "]".repeat(n)),
                Arbitraries.integers().between(60_000, 70_000).map(n -> "{\"id\":\"" + "x".repeat(n) + "\"}"));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
