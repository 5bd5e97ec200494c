package io.cctflow.query;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.MethodRecord;
import io.cctflow.query.api.compare.StoredStacks;
import io.cctflow.servers.TestServers;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Driver;

/** Answers that used to be dropped connections or 500s: very deep trees and instants at the ends of time. */
class QueryRobustnessTest {
    /** Four times Jackson's default nesting limit (1,000 levels = 500 tree levels). */
    private static final int DEPTH = 2_000;
    private static Driver driver;
    private static QueryService service;
    private static QueryFixture.Api api;

    @BeforeAll
    static void start() throws Exception {
        driver = TestServers.get().newDriver();
        new QueryFixture().write(driver, 11);
        MethodRecord[] frames = new MethodRecord[DEPTH];
        int[] lines = new int[DEPTH];
        for (int i = 0; i < DEPTH; i++) {
            frames[i] = StoredStacks.method(i);
            lines[i] = i == 0 ? 0 : 1 + i % 7;
        }
        new StoredStacks("deep", "d").add(List.of(new StoredStacks.Stack(frames, lines, 3, 0)))
                .write(new GraphWriter(driver, ""));
        service = QueryService.start(QueryServiceConfig.defaults().with(Map.of(QueryServiceConfig.PORT, "0",
                QueryServiceConfig.NEO4J_URI, TestServers.get().neo4jUri(), QueryServiceConfig.ROLLUP_INTERVAL, "0")));
        api = new QueryFixture.Api(service.port(), null);
    }

    @AfterAll
    static void stop() {
        service.close();
        driver.close();
    }

    @Test
    void aTreeThousandsOfLevelsDeepIsAnsweredWhole() {
        JsonNode body = api.get("/api/v1/tree?service=shop&version=deep&maxDepth=" + (DEPTH + 10), 200);
        assertThat(body.get("nodes").asInt()).isEqualTo(DEPTH + 1);
        JsonNode n = body.get("root");
        int depth = 0;
        while (n.get("children").size() == 1) {
            n = n.get("children").get(0);
            depth++;
            assertThat(n.get("method").asText()).isEqualTo(StoredStacks.method(depth - 1).signature());
            assertThat(n.get("total").asLong()).isEqualTo(3);
        }
        assertThat(depth).isEqualTo(DEPTH);
        assertThat(n.get("self").asLong()).isEqualTo(3);
        assertThat(n.get("children")).isEmpty();

        // the default maxDepth (512) prunes, and what it keeps still exceeds Jackson's default nesting
        assertThat(api.get("/api/v1/tree?service=shop&version=deep", 200).get("nodes").asInt()).isEqualTo(513);

        HttpResponse<String> collapsed = api.send("GET", "/api/v1/tree?service=shop&version=deep&format=collapsed"
                + "&maxDepth=" + DEPTH, null);
        assertThat(collapsed.statusCode()).isEqualTo(200);
        String[] line = collapsed.body().strip().split(" ");
        assertThat(line).hasSize(2);
        assertThat(line[0].split(";")).hasSize(DEPTH);
        assertThat(line[1]).isEqualTo("3");
    }

    @Test
    void instantsAtTheEndsOfTimeAreA400NamingTheParameter() {
        for (String year : List.of("+1000000000", "-1000000000", "+10000", "1969")) {
            String from = year + "-01-01T00:00:00Z";
            String to = year + "-01-02T00:00:00Z";
            JsonNode body = api.get("/api/v1/tree?service=shop&from=" + QueryFixture.enc(from) + "&to="
                    + QueryFixture.enc(to), 400);
            assertThat(body.get("error").asText()).as(year).contains("parameter 'from' must lie between");
            body = api.get("/api/v1/metrics/method?service=shop&method=com.shop.Db.query&from=2026-01-01T00:00:00Z"
                    + "&to=" + QueryFixture.enc(to), 400);
            assertThat(body.get("error").asText()).as(year).contains("parameter 'to' must lie between");
        }
    }
}
