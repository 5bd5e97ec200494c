package io.cctflow.graph;

import io.cctflow.model.Resolution;

/**
 * The longest fine window stored, recorded so that a range read looks back no further than that
 * for fine windows that start before the range and reach into it: {@code longestFine} (millis) on
 * the windows' store stamp node ({@link StoreStamp#WINDOWS}), which every transaction that writes
 * windows locks and sets already, so recording it adds no lock and no transaction.
 *
 * <p>The rule that keeps reads complete: the recorded value never falls, and every transaction
 * that writes a fine window longer than the value raises it in that same transaction
 * ({@link #BUMP_AND_RAISE_AFTER}, after taking the node's lock, so two writers cannot lose a raise).
 * A reader reads the value ({@link #LOOKBACK}) in the query that lists windows, before it seeks
 * them: a longer window committed before that is found; one committed meanwhile may be missed, as
 * by a read a moment earlier; and the reader's plan is remembered under the store stamp read
 * before it, which that window's transaction changed.
 *
 * <p>Beside it, {@code fineWithinMinutes}: true while no fine window stored crosses a minute (every
 * one starts and ends in the same minute, as the samples job's windows do when their length
 * divides a minute). Every roll-up starts on a minute, so then no fine window starts before a
 * roll-up and reaches into it, and a read need not look for one where a roll-up covers its start
 * ({@code RangePlanner}: at 1,000 instances that look was 37-66 ms of a 57-91 ms plan).
 * A transaction that writes a fine window crossing a minute sets it false in that same
 * transaction, and nothing sets it true again but the pass below.
 *
 * <p>A store written before a value existed has none: readers and writers take the longest as
 * {@link #UNRECORDED_MILLIS}, the look-back reads had then, and {@code fineWithinMinutes} as false,
 * until {@link GraphSchema#ensure} records both from the fine windows stored (one pass over them,
 * once, holding the node's lock so that no window is written meanwhile).
 */
public final class FineWindowBound {
    /**
     * The longest fine window a store without a recorded value is taken to hold: the limit of the
     * samples job's window when such stores were written, and the look-back of reads then.
     */
    public static final long UNRECORDED_MILLIS = 3_600_000;

    /**
     * Opens a read query: binds {@code longestFine}, the look-back for fine windows (one row). A
     * window of the range [from, to) starts after {@code from - longestFine}.
     */
    public static final String LOOKBACK = """
            OPTIONAL MATCH (bound:StoreStamp {name: '%s'})
            WITH coalesce(bound.longestFine, %d) AS longestFine
            """.formatted(StoreStamp.WINDOWS, UNRECORDED_MILLIS);

    /**
     * {@link StoreStamp#bumpAfter} of the window stamp for a statement whose rows {@code r} are
     * windows ({@code resolution}, {@code start}, {@code end}): also raises the recorded longest
     * fine window to the longest fine one among them. Keeps {@code stampedRows}.
     */
    public static final String BUMP_AND_RAISE_AFTER = """
            WITH count(*) AS stampedRows,
                 max(CASE WHEN r.resolution = '%s' THEN r.end - r.start END) AS longestWritten,
                 max(CASE WHEN r.resolution = '%s' AND %s THEN 1 ELSE 0 END) AS crossingWritten
            """.formatted(Resolution.FINE.property(), Resolution.FINE.property(), crossesMinute("r"))
            + StoreStamp.bump(StoreStamp.WINDOWS) + """
            WITH stampedRows, stamp, longestWritten, crossingWritten
            SET stamp.longestFine = CASE WHEN longestWritten > coalesce(stamp.longestFine, %d)
                                         THEN longestWritten ELSE stamp.longestFine END,
                stamp.fineWithinMinutes = CASE WHEN crossingWritten = 1 THEN false ELSE stamp.fineWithinMinutes END
            """.formatted(UNRECORDED_MILLIS);

    /** Opens a read query: binds {@code fineWithinMinutes} (one row), false when none is recorded. */
    public static final String WITHIN_MINUTES = """
            OPTIONAL MATCH (bound:StoreStamp {name: '%s'})
            WITH coalesce(bound.fineWithinMinutes, false) AS fineWithinMinutes
            """.formatted(StoreStamp.WINDOWS);

    /**
     * Bumps the window stamp and, on a store that has no value yet, records the longest fine window
     * stored (0 when none is): the bump takes the node's lock first, so writers wait until the value
     * is recorded, and those that committed before are in the pass.
     */
    static final String RECORD = StoreStamp.bump(StoreStamp.WINDOWS) + """
            WITH stamp WHERE stamp.longestFine IS NULL OR stamp.fineWithinMinutes IS NULL
            CALL {
              MATCH (w:Window)
              WHERE w.resolution = $fine AND w.start IS NOT NULL
              RETURN max(w.end - w.start) AS longest, max(CASE WHEN %s THEN 1 ELSE 0 END) AS crossing
            }
            SET stamp.longestFine = coalesce(stamp.longestFine, longest, 0),
                stamp.fineWithinMinutes = coalesce(crossing, 0) = 0
            """.formatted(crossesMinute("w"));

    private FineWindowBound() {
    }

    /** Whether the window {@code w} (start and end in millis) ends after the end of its start's minute. */
    private static String crossesMinute(String w) {
        // the floor of the minute of the start, right for a negative start too (% keeps the dividend's sign)
        return "%1$s.end > %1$s.start - (%1$s.start %% %2$d + %2$d) %% %2$d + %2$d"
                .formatted(w, Resolution.MINUTE.millis());
    }
}
