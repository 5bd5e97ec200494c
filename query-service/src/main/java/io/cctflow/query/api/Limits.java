package io.cctflow.query.api;

import java.time.Duration;

/**
 * What one request may cost; exceeding a limit is a 400 that says which limit, its value and
 * what to change ({@code limits.*} keys of the query service).
 */
public record Limits(Duration maxRange, int maxWindows, int maxTreeNodes, int maxResults) {
    /** The defaults of {@link io.cctflow.query.QueryServiceConfig}. */
    public static final Limits DEFAULT = new Limits(Duration.ofDays(366), 200_000, 200_000, 10_000);
}
