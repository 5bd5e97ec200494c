package io.cctflow.graph.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.cctflow.graph.CleanGraph;
import io.cctflow.graph.Keys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.Session;
import org.neo4j.driver.summary.Plan;

/**
 * The reads of named executions' windows (and the writes that match a window by its identity,
 * which share {@link Keys#MATCH_WINDOWS}) seek the window identity index by instance, also on an
 * empty store, where Neo4j otherwise planned them on {@code (resolution, start)} and filtered every
 * instance's windows down to the named ones. Without the hint, which reads get that plan depends
 * on the store's statistics: here the covered windows' and the roll-up versions' reads; on a new
 * server the one-key read of stored windows too (the pipeline benchmark's probes).
 */
class WindowSeekPlansTest extends CleanGraph {
    private static final Map<String, Object> WINDOW = Map.of("key", "svc/v1/i-1", "instance", "svc/v1/i-1",
            "resolution", "fine", "from", 0L, "to", 60_000L, "endBy", 60_000L);

    private static Map<String, Object> params(List<String> keys) {
        return Map.of("keys", keys, "key", "svc/v1/i-1", "fine", "fine", "resolution", "fine", "from", 0L,
                "to", 60_000L, "seeks", List.of(WINDOW), "rows", List.of(WINDOW), "windows", List.of(WINDOW),
                "noWritten", Long.MAX_VALUE);
    }

    @Test
    void everyReadOfNamedExecutionsSeeksTheIdentityIndexOnAnEmptyStore() {
        // one key is the case Neo4j planned on (resolution, start): the probes' read, one instance's
        for (List<String> keys : List.of(List.of("svc/v1/i-1"), List.of("svc/v1/i-1", "svc/v1/i-2"))) {
            for (String query : List.of(WindowReader.STORED_WINDOWS, WindowReader.COVERED_WINDOWS,
                    VersionedWindows.ROLLUP_VERSIONS, VersionedWindows.FINE_VERSIONS,
                    Keys.MATCH_WINDOWS + "RETURN w.start")) {
                assertThat(windowOperators(query, params(keys))).as("%s with %s", query, keys).isNotEmpty()
                        .allMatch(op -> op.contains("UNIQUE w:Window(instance, resolution, start)"));
            }
        }
    }

    /** The plan's operators that read {@code :Window} nodes, planned afresh (the query cache cleared). */
    private static List<String> windowOperators(String query, Map<String, Object> params) {
        try (Session session = driver.session()) {
            session.run("CALL db.clearQueryCaches()").consume();
            List<String> out = new ArrayList<>();
            collect(session.run("EXPLAIN " + query, params).consume().plan(), out);
            return out;
        }
    }

    private static void collect(Plan plan, List<String> out) {
        Object details = plan.arguments().get("Details");
        String text = plan.operatorType() + " " + (details == null ? "" : details);
        if (text.contains(":Window")) {
            out.add(text);
        }
        plan.children().forEach(c -> collect(c, out));
    }
}
