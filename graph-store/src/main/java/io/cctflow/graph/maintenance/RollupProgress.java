package io.cctflow.graph.maintenance;

import io.cctflow.graph.Sessions;
import java.util.Map;
import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Session;

/**
 * Reads and records how far roll-ups have got: the one {@code :RollupState} node ({@link RollupState}).
 * {@link #write} is public for tools that prepare a store as a pass would have left it (the query
 * benchmark's live tail); a pass of {@link Rollups} keeps it up to date by itself. Thread-safe as far
 * as the driver is; the caller owns the driver.
 */
public final class RollupProgress {
    private final Driver driver;
    private final String database;

    /** The roll-up state of {@code database} (the default one when empty). */
    public RollupProgress(Driver driver, String database) {
        this.driver = driver;
        this.database = database;
    }

    /** How far roll-ups have got; {@link RollupState#NONE} before the first pass. */
    RollupState read() {
        try (Session session = Sessions.open(driver, database)) {
            return session.executeRead(tx -> {
                var rows = tx.run("""
                        MATCH (s:RollupState {name: 'rollups'})
                        RETURN s.hourDoneUntil AS hour, s.dayDoneUntil AS day, s.slotsDoneUntil AS slots,
                               s.minutesDoneUntil AS minutes, s.lastPass AS pass
                        """).list();
                if (rows.isEmpty()) {
                    return RollupState.NONE;
                }
                Record r = rows.get(0);
                // no slotsDoneUntil (minutesDoneUntil): written before slots of live hours (their
                // minutes) were rolled up
                return new RollupState(r.get("hour").asLong(), r.get("day").asLong(),
                        r.get("slots").asLong(Long.MIN_VALUE), r.get("minutes").asLong(Long.MIN_VALUE),
                        r.get("pass").asLong());
            });
        }
    }

    /** Records how far roll-ups have got, replacing what was recorded ({@link Rollups} only ever advances it). */
    public void write(RollupState state) {
        try (Session session = Sessions.open(driver, database)) {
            session.executeWriteWithoutResult(tx -> tx.run("""
                    MERGE (s:RollupState {name: 'rollups'})
                    SET s.hourDoneUntil = $hour, s.dayDoneUntil = $day, s.slotsDoneUntil = $slots,
                        s.minutesDoneUntil = $minutes, s.lastPass = $pass
                    """, Map.of("hour", state.hourDoneUntil(), "day", state.dayDoneUntil(),
                            "slots", state.slotsDoneUntil(), "minutes", state.minutesDoneUntil(),
                            "pass", state.lastPassMillis())).consume());
        }
    }
}
