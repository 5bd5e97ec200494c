package io.cctflow.core;

import java.time.Duration;
import java.util.Locale;

/**
 * Parses durations as people write them in configuration: {@code 500ms}, {@code 30s}, {@code 1m},
 * {@code 2h}, {@code 7d}, {@code 0}, or ISO-8601: one syntax for the samples job's keys, the query
 * service's and the benchmarks' options. Callers check the range they accept.
 */
public final class Durations {
    private Durations() {
    }

    /** @throws IllegalArgumentException with the accepted forms */
    public static Duration parse(String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (s.equals("0")) {
                return Duration.ZERO;
            }
            if (s.startsWith("p")) {
                return Duration.parse(text.trim());
            }
            if (s.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2).trim()));
            }
            long n = Long.parseLong(s.substring(0, s.length() - 1).trim());
            return switch (s.charAt(s.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                case 'd' -> Duration.ofDays(n);
                default -> throw new IllegalArgumentException();
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (write e.g. 500ms, 30s, 1m, 2h, 7d or PT1M)");
        }
    }
}
