package io.cctflow.graph.maintenance;

import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * The sums one roll-up pass writes for a set of executions (a whole deployment, or one of its
 * instance groups) over one rolled-up hour or day, or one ten-minute slot of an hour not settled
 * yet: for an hour or a day the sum of their roll-ups of it, and for an hour or a slot the sums of
 * their fine windows per ten minutes and per minute ({@link SlotSums}; minute windows only where
 * they are much smaller than what they sum, {@link Rollups#MINUTE_SHARE}). Only the ten-minute and
 * minute slots that are <em>due</em> are summed and written: the others are left as an earlier pass
 * wrote them (no fine window of theirs changed since), so their {@code written} time, by which
 * readers' caches know them, stays. Not thread-safe.
 */
final class SpanSums {
    private final Resolution resolution;
    private final long start;
    private final RunningSum sum;
    private final SlotSums tens;
    private final SlotSums minutes;
    private final LongPredicate tensDue;
    private final LongPredicate minutesDue;

    /** Sums with every ten-minute and minute slot due. */
    SpanSums(Resolution resolution, long start) {
        this(resolution, start, slot -> true, minute -> true);
    }

    /**
     * @param resolution {@link Resolution#HOUR} (its sum, ten-minute and minute sums), {@link
     *     Resolution#DAY} (its sum) or {@link Resolution#TEN_MINUTES} (minutes or a slot of a live
     *     hour: their ten-minute and minute sums, no sum of the span)
     * @param tensDue which ten-minute slots (by their start) are summed and written
     * @param minutesDue which minutes (by their start) are summed and written
     */
    SpanSums(Resolution resolution, long start, LongPredicate tensDue, LongPredicate minutesDue) {
        this(resolution, start, tensDue, minutesDue, minute -> false);
    }

    /**
     * {@link #SpanSums(Resolution, long, LongPredicate, LongPredicate)} with the minutes (by their
     * start) that are summed before they settle: their windows carry the {@code sources} of what
     * they sum ({@link SlotSums}).
     */
    SpanSums(Resolution resolution, long start, LongPredicate tensDue, LongPredicate minutesDue,
            LongPredicate provisionalMinutes) {
        this.resolution = resolution;
        this.start = start;
        this.tensDue = tensDue;
        this.minutesDue = minutesDue;
        boolean fine = resolution != Resolution.DAY;
        this.sum = resolution != Resolution.TEN_MINUTES ? new RunningSum() : null;
        this.tens = fine ? new SlotSums(Resolution.TEN_MINUTES, RunningSum.PENDING, 1, false) : null;
        this.minutes = fine ? new SlotSums(Resolution.MINUTE, Rollups.MINUTE_PENDING, Rollups.MINUTE_SHARE, true,
                provisionalMinutes) : null;
    }

    /** Adds an execution's fine window to the ten-minute and minute sums that are due (not for a day). */
    void addFine(String execution, WindowCounts fine) {
        long at = fine.windowStartMillis();
        if (tensDue.test(Resolution.TEN_MINUTES.floor(at))) {
            tens.add(execution, fine);
        }
        if (minutesDue.test(Resolution.MINUTE.floor(at))) {
            minutes.add(execution, fine);
        }
    }

    /** A fine window that a stored roll-up covers and that is gone: its slots are left as they are. */
    void missing(long fineStartMillis) {
        tens.missing(fineStartMillis);
        minutes.missing(fineStartMillis);
    }

    /** Adds an execution's roll-up of the hour or day. */
    void addRolled(WindowCounts rolled) {
        sum.add(rolled);
    }

    /**
     * Writes the sums under {@code key} (an hour or day sum with {@code members}; one of a single
     * member only where stored already, {@link RollupWrites#writeDeploymentWindows}), deletes its
     * minute windows whose parts break the whole-minute rule; returns the windows written.
     */
    int write(RollupWrites writes, String key, List<String> members) {
        int written = sum == null ? 0 : writes.writeDeploymentWindows(List.of(new DeploymentWindow(
                sum.window(key, start, resolution), members)), resolution);
        if (tens != null) {
            for (SlotSums slots : List.of(tens, minutes)) {
                written += writes.writeDeploymentWindows(slots.windows(key), slots.resolution(), slots.worthCreating());
                writes.deleteDeploymentWindows(key, slots.resolution(), slots.broken());
            }
        }
        return written;
    }
}
