package io.cctflow.query;

import static io.cctflow.query.QueryFixture.WINDOW;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cctflow.model.TruncationCounts;
import io.cctflow.model.WindowCounts;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /api/v1/truncation} against the windows the fixture wrote (random truncated-stack
 * outcomes per window), for every selection of {@link QueryApiTest}: per window, per instance and
 * in all, each count and each share of the samples received.
 */
class TruncationEndpointTest {
    private static final QueryFixture DATA = new QueryFixture();
    private static QueryFixture.Served served;
    private static QueryFixture.Api api;

    @BeforeAll
    static void start() throws Exception {
        served = DATA.serve(11);
        api = served.api();
    }

    @AfterAll
    static void stop() {
        served.close();
    }

    @Test
    void figuresEqualTheStoredWindowsPerWindowInstanceAndSelection() {
        for (QueryApiTest.Case c : QueryApiTest.cases()) {
            JsonNode r = api.get("/api/v1/truncation?" + c.query(), 200);
            long allSamples = 0;
            TruncationCounts all = TruncationCounts.NONE;
            List<String> instances = new ArrayList<>();
            for (JsonNode instance : r.get("instances")) {
                String key = QueryFixture.key(instance.get("instance").asText());
                instances.add(key);
                List<WindowCounts> stored = DATA.windows.stream()
                        .filter(w -> w.executionKey().equals(key) && w.windowStartMillis() < c.to()
                                && w.windowEndMillis() > c.from())
                        .toList();
                String what = c.query() + " instance " + key;
                assertThat(instance.get("windows")).as(what).hasSize(stored.size());
                long samples = 0;
                TruncationCounts sum = TruncationCounts.NONE;
                for (int k = 0; k < stored.size(); k++) {
                    WindowCounts w = stored.get(k);
                    JsonNode row = instance.get("windows").get(k);
                    assertThat(Instant.parse(row.get("start").asText()).toEpochMilli()).isEqualTo(w.windowStartMillis());
                    assertThat(Instant.parse(row.get("end").asText()).toEpochMilli())
                            .isEqualTo(w.windowStartMillis() + WINDOW);
                    assertFigures(row.get("figures"), w.counts().samples(), w.truncation(), what + " window " + k);
                    samples += w.counts().samples();
                    sum = sum.plus(w.truncation());
                }
                assertFigures(instance.get("figures"), samples, sum, what);
                allSamples += samples;
                all = all.plus(sum);
            }
            assertThat(instances).as(c.query()).containsExactlyInAnyOrderElementsOf(c.executions());
            assertFigures(r.get("figures"), allSamples, all, c.query());
            assertThat(all.total()).as(c.query() + ": the fixture truncates").isPositive();
        }
    }

    /** Brute force: pending, ambiguous and expired samples are not in the tree, merged ones are. */
    private static void assertFigures(JsonNode f, long treeSamples, TruncationCounts t, String what) {
        long received = treeSamples + t.pending() + t.ambiguous() + t.expired();
        assertThat(f.get("samples").asLong()).as(what).isEqualTo(received);
        assertThat(f.get("truncated").asLong()).as(what).isEqualTo(t.merged() + t.pending() + t.ambiguous()
                + t.expired());
        assertThat(f.get("merged").asLong()).as(what).isEqualTo(t.merged());
        assertThat(f.get("pending").asLong()).as(what).isEqualTo(t.pending());
        assertThat(f.get("ambiguous").asLong()).as(what).isEqualTo(t.ambiguous());
        assertThat(f.get("expired").asLong()).as(what).isEqualTo(t.expired());
        assertThat(f.get("truncatedShare").asDouble()).as(what).isEqualTo(share(t.total(), received));
        assertThat(f.get("mergedShare").asDouble()).as(what).isEqualTo(share(t.merged(), received));
        assertThat(f.get("pendingShare").asDouble()).as(what).isEqualTo(share(t.pending(), received));
        assertThat(f.get("ambiguousShare").asDouble()).as(what).isEqualTo(share(t.ambiguous(), received));
        assertThat(f.get("expiredShare").asDouble()).as(what).isEqualTo(share(t.expired(), received));
    }

    /** A share of the samples received; 0 for a window or instance that received none. */
    private static double share(long part, long received) {
        return received == 0 ? 0.0 : (double) part / received;
    }

    @Test
    void badSelectionsAreRefusedNamingTheParameter() {
        assertThat(api.get("/api/v1/truncation", 400).get("error").asText()).contains("'service'");
        assertThat(api.get("/api/v1/truncation?service=shop&top=3", 400).get("error").asText()).contains("'top'");
        assertThat(api.get("/api/v1/truncation?service=shop&from=yesterday", 400).get("error").asText())
                .contains("'from'");
        assertThat(api.get("/api/v1/truncation?service=nope", 404).get("error").asText()).contains("nope");
    }

    @Test
    void moreWindowsThanTheLimitIsRefusedNamingTheLimit() throws Exception {
        try (QueryService small = QueryFixture.startService(java.util.Map.of(QueryServiceConfig.MAX_WINDOWS, "5"))) {
            assertThat(new QueryFixture.Api(small.port(), null).get("/api/v1/truncation?service=shop", 400)
                    .get("error").asText()).contains("limits.max-windows");
        }
    }
}
