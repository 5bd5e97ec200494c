package io.cctflow.graph.maintenance;

import io.cctflow.graph.Keys;
import io.cctflow.graph.PackedLongs;
import io.cctflow.graph.Sessions;
import io.cctflow.graph.SelfCounts;
import io.cctflow.graph.WindowChecksum;
import io.cctflow.graph.read.CoveredWindow;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

/**
 * Writes roll-ups: their counts through {@link GraphWriter} (idempotent {@code SET}), then what an
 * instance roll-up covers ({@code coverStarts}, {@code coverChecksums}) with {@code coverFor}, the
 * checksum of the counts they describe. The two are separate transactions: a pass that stops
 * between them leaves coverage that names other counts, which readers treat as unknown
 * ({@link CoveredSum}), never as the coverage of the new counts.
 *
 * <p>Thread-safe as far as the {@link Driver} is; the caller owns the driver.
 */
final class RollupWrites {
    private static final String WRITE_COVERAGE = """
            MATCH (w:Window {instance: $instance, resolution: $resolution, start: $start})
            SET w.coverStarts = $starts, w.coverChecksums = $checksums, w.coverFor = $coverFor
            """;

    private final Driver driver;
    private final String database;
    private final GraphWriter writer;

    RollupWrites(Driver driver, String database) {
        this.driver = driver;
        this.database = database;
        this.writer = new GraphWriter(driver, database);
    }

    /** Replaces one execution's roll-up and records what it covers (nothing known: coverage removed). */
    void writeInstanceRollup(CoveredWindow rollup, Resolution resolution) {
        WindowCounts w = rollup.window();
        writer.writeWindowCounts(List.of(w), resolution);
        Map<String, Object> params = new HashMap<>(); // null values remove the properties
        params.putAll(Keys.windowIdentity(w.executionKey(), resolution, w.windowStartMillis()));
        if (rollup.coverage() != null) {
            params.put("starts", PackedLongs.pack(rollup.coverage().starts()));
            params.put("checksums", PackedLongs.pack(rollup.coverage().checksums()));
            params.put("coverFor", WindowChecksum.of(SelfCounts.project(w.counts()), w.truncation())); // as stored
        } else {
            params.put("starts", null);
            params.put("checksums", null);
            params.put("coverFor", null);
        }
        try (Session session = Sessions.open(driver, database)) {
            session.executeWriteWithoutResult(tx -> tx.run(WRITE_COVERAGE, params).consume());
        }
    }

    /** Replaces roll-ups of whole deployments (those of one member only where stored); returns how many were written. */
    int writeDeploymentWindows(List<DeploymentWindow> windows, Resolution resolution) {
        return writer.writeDeploymentWindows(windows, resolution);
    }
}
