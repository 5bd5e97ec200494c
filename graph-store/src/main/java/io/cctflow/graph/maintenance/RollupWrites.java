package io.cctflow.graph.maintenance;

import io.cctflow.graph.GraphSchema;
import io.cctflow.graph.Keys;
import io.cctflow.graph.PackedLongs;
import io.cctflow.graph.Sessions;
import io.cctflow.graph.SelfCounts;
import io.cctflow.graph.StoreStamp;
import io.cctflow.graph.WindowChecksum;
import io.cctflow.graph.read.CoveredWindow;
import io.cctflow.graph.write.GraphWriter;
import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
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
            UNWIND $rows AS r
            MATCH (w:Window {instance: r.instance, resolution: r.resolution, start: r.start})
            """ + GraphSchema.SEEK_WINDOWS_BY_INSTANCE + """
            SET w.coverStarts = r.starts, w.coverChecksums = r.checksums, w.coverFor = r.coverFor
            """;

    private static final String DELETE_WINDOWS = """
            UNWIND $starts AS s
            MATCH (w:Window {instance: $key, resolution: $resolution, start: s})
            """ + GraphSchema.SEEK_WINDOWS_BY_INSTANCE + """
            DETACH DELETE w
            RETURN count(*) AS n
            """;

    private static final String SETTLE_SUMS = Keys.MATCH_WINDOWS + """
            WITH w WHERE w.sources IS NOT NULL
            SET w.sources = null, w.written = timestamp()
            RETURN count(w) AS n
            """;

    private final Driver driver;
    private final String database;
    private final GraphWriter writer;

    RollupWrites(Driver driver, String database) {
        this.driver = driver;
        this.database = database;
        this.writer = new GraphWriter(driver, database);
    }

    /**
     * Roll-ups of one resolution to write, written {@value #BATCH} at a time: their counts in one
     * transaction, then their coverage in one (two commits per batch, where one roll-up at a time
     * cost two per execution). Not thread-safe.
     */
    final class Batch {
        private final Resolution resolution;
        private final List<CoveredWindow> pending = new ArrayList<>(BATCH);

        private Batch(Resolution resolution) {
            this.resolution = resolution;
        }

        /** Adds a roll-up to replace; writes the batch once it holds {@value #BATCH}. */
        void add(CoveredWindow rollup) {
            pending.add(rollup);
            if (pending.size() >= BATCH) {
                flush();
            }
        }

        /** Writes what is pending. */
        void flush() {
            if (!pending.isEmpty()) {
                writeInstanceRollups(pending, resolution);
                pending.clear();
            }
        }
    }

    /** Instance roll-ups written per batch ({@link Batch}). */
    static final int BATCH = 32;

    /** A new, empty batch of {@code resolution} roll-ups. */
    Batch batch(Resolution resolution) {
        return new Batch(resolution);
    }

    /** Replaces executions' roll-ups and records what each covers (nothing known: coverage removed). */
    void writeInstanceRollups(List<CoveredWindow> rollups, Resolution resolution) {
        List<WindowCounts> windows = new ArrayList<>(rollups.size());
        List<Map<String, Object>> rows = new ArrayList<>(rollups.size());
        for (CoveredWindow rollup : rollups) {
            WindowCounts w = rollup.window();
            windows.add(w);
            Map<String, Object> row = new HashMap<>(); // null values remove the properties
            row.putAll(Keys.windowIdentity(w.executionKey(), resolution, w.windowStartMillis()));
            if (rollup.coverage() != null) {
                row.put("starts", PackedLongs.pack(rollup.coverage().starts()));
                row.put("checksums", PackedLongs.pack(rollup.coverage().checksums()));
                row.put("coverFor", WindowChecksum.of(SelfCounts.project(w.counts()), w.truncation())); // as stored
            } else {
                row.put("starts", null);
                row.put("checksums", null);
                row.put("coverFor", null);
            }
            rows.add(row);
        }
        writer.writeWindowCounts(windows, resolution);
        try (Session session = Sessions.open(driver, database)) {
            session.executeWriteWithoutResult(tx -> tx.run(WRITE_COVERAGE, Map.of("rows", rows)).consume());
        }
    }

    /** Replaces roll-ups of whole deployments (those of one member only where stored); returns how many were written. */
    int writeDeploymentWindows(List<DeploymentWindow> windows, Resolution resolution) {
        return writer.writeDeploymentWindows(windows, resolution);
    }

    /** Deletes a deployment's roll-ups of {@code resolution} that start at {@code starts}, where stored. */
    void deleteDeploymentWindows(String deploymentKey, Resolution resolution, List<Long> starts) {
        if (starts.isEmpty()) {
            return;
        }
        try (Session session = Sessions.open(driver, database)) {
            session.executeWriteWithoutResult(tx -> {
                long deleted = tx.run(DELETE_WINDOWS, Map.of("key", deploymentKey, "resolution", resolution.property(),
                        "starts", starts)).single().get("n").asLong();
                if (deleted > 0) { // readers that listed them list again
                    tx.run(StoreStamp.bump(StoreStamp.WINDOWS)).consume();
                }
            });
        }
    }

    /**
     * Makes the provisional sums of {@code resolution} starting at {@code start} under {@code keys}
     * settled ones as they are (drops their {@code sources}; {@code written} now), where stored;
     * returns how many.
     */
    int settleSums(List<String> keys, Resolution resolution, long start) {
        if (keys.isEmpty()) {
            return 0;
        }
        List<Map<String, Object>> identities = keys.stream().map(k -> Keys.windowIdentity(k, resolution, start)).toList();
        try (Session session = Sessions.open(driver, database)) {
            return session.executeWrite(tx -> {
                int settled = tx.run(SETTLE_SUMS, Map.of("windows", identities)).single().get("n").asInt();
                if (settled > 0) { // readers that listed them as provisional list again
                    tx.run(StoreStamp.bump(StoreStamp.WINDOWS)).consume();
                }
                return settled;
            });
        }
    }

    /** Replaces roll-ups of whole deployments, creating only those {@code create} accepts; returns how many were written. */
    int writeDeploymentWindows(List<DeploymentWindow> windows, Resolution resolution,
            Predicate<DeploymentWindow> create) {
        return writer.writeDeploymentWindows(windows, resolution, create);
    }
}
