package io.cctflow.graph.maintenance;

import io.cctflow.model.Resolution;
import java.time.Duration;
import java.util.Objects;

/**
 * How long windows of each resolution are kept, counted from a window's end. A fine (or hourly)
 * window is never deleted before the roll-up that covers it has been written, whatever its age:
 * see {@link Retention}. Minute and ten-minute roll-ups (per deployment) are kept as long as fine windows.
 */
public record RetentionPolicy(Duration fine, Duration hour, Duration day) {
    /**
     * Fine windows 14 days, hourly a year (365 days), daily five years (1,825 days): a fleet of
     * 1,000 busy instances then keeps about half of a 1 TiB store (the arithmetic from measured
     * bytes per instance-day is in the graph-store README, "Retention").
     */
    public static final RetentionPolicy DEFAULT =
            new RetentionPolicy(Duration.ofDays(14), Duration.ofDays(365), Duration.ofDays(1825));

    public RetentionPolicy {
        for (Duration d : new Duration[] {Objects.requireNonNull(fine, "fine"), Objects.requireNonNull(hour, "hour"),
                Objects.requireNonNull(day, "day")}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("retention must be > 0, got " + d);
            }
        }
    }

    public Duration of(Resolution r) {
        return switch (r) {
            // deployments' minute and ten-minute roll-ups serve the edges of ranges, as fine windows do
            case FINE, MINUTE, TEN_MINUTES -> fine;
            case HOUR -> hour;
            case DAY -> day;
        };
    }
}
