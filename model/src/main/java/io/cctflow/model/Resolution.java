package io.cctflow.model;

import java.util.Locale;

/**
 * How much time one stored {@code :Window} covers. {@link #FINE} windows are what the samples job
 * writes (its {@code window} key, 1 min by default); {@link #HOUR} and {@link #DAY} are roll-ups:
 * the summed counts of the finer windows of one instance (or of all instances of one deployment)
 * that start within one UTC hour or day. {@link #TEN_MINUTES} and {@link #MINUTE} roll-ups exist
 * per deployment only: they serve the unaligned edges of ranges over whole deployments (a minute
 * window sums the fine windows of all the deployment's instances that start in that minute).
 */
public enum Resolution {
    FINE(0),
    MINUTE(60_000L),
    TEN_MINUTES(600_000L),
    HOUR(3_600_000L),
    DAY(86_400_000L);

    private final long millis;

    Resolution(long millis) {
        this.millis = millis;
    }

    /** Length of a roll-up window; 0 for {@link #FINE}, whose length is the job's window. */
    public long millis() {
        return millis;
    }

    /** The value of the {@code resolution} property: {@code fine}, {@code minute}, {@code ten_minutes}, {@code hour}, {@code day}. */
    public String property() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The resolution whose {@link #property()} is {@code value}.
     *
     * @throws IllegalArgumentException if none is
     */
    public static Resolution ofProperty(String value) {
        for (Resolution r : values()) {
            if (r.property().equals(value)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown window resolution '" + value + "'");
    }

    /** Start of the roll-up window that holds {@code epochMillis} (UTC-aligned). */
    public long floor(long epochMillis) {
        return Math.floorDiv(epochMillis, millis) * millis;
    }

    /** The smallest roll-up window start at or after {@code epochMillis}. */
    public long ceil(long epochMillis) {
        return -Math.floorDiv(-epochMillis, millis) * millis;
    }
}
