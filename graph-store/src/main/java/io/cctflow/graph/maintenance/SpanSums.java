package io.cctflow.graph.maintenance;

import io.cctflow.model.DeploymentWindow;
import io.cctflow.model.Resolution;
import io.cctflow.model.WindowCounts;
import java.util.List;

/**
 * The sums one roll-up pass writes for a set of executions (a whole deployment, or one of its
 * instance groups) over one rolled-up hour or day, or one ten-minute slot of an hour not settled
 * yet: for an hour or a day the sum of their roll-ups of it, and for an hour or a slot the sums of
 * their fine windows per ten minutes and per minute ({@link SlotSums}; minute windows only where
 * they are much smaller than what they sum, {@link Rollups#MINUTE_SHARE}). Not thread-safe.
 */
final class SpanSums {
    private final Resolution resolution;
    private final long start;
    private final RunningSum sum;
    private final SlotSums tens;
    private final SlotSums minutes;

    /**
     * @param resolution {@link Resolution#HOUR} (its sum, ten-minute and minute sums), {@link
     *     Resolution#DAY} (its sum) or {@link Resolution#TEN_MINUTES} (a slot of a live hour: its
     *     ten-minute and minute sums)
     */
    SpanSums(Resolution resolution, long start) {
        this.resolution = resolution;
        this.start = start;
        boolean fine = resolution != Resolution.DAY;
        this.sum = resolution != Resolution.TEN_MINUTES ? new RunningSum() : null;
        this.tens = fine ? new SlotSums(Resolution.TEN_MINUTES, RunningSum.PENDING, 1, false) : null;
        this.minutes = fine ? new SlotSums(Resolution.MINUTE, Rollups.MINUTE_PENDING, Rollups.MINUTE_SHARE, true) : null;
    }

    /** Adds an execution's fine window to the ten-minute and minute sums (not for a day). */
    void addFine(String execution, WindowCounts fine) {
        tens.add(execution, fine);
        minutes.add(execution, fine);
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
