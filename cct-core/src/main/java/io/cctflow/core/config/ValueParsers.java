package io.cctflow.core.config;

import io.cctflow.core.Durations;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The parsers the services' keys share. Each rejects a bad value with a message that names it
 * (see {@link ValueParser}). Stateless and thread-safe.
 */
public final class ValueParsers {
    private ValueParsers() {
    }

    /** Any text, the empty text included. */
    public static ValueParser<String> text() {
        return raw -> raw;
    }

    /** Any text but the empty one. */
    public static ValueParser<String> nonEmpty() {
        return raw -> {
            if (raw.isBlank()) {
                throw new IllegalArgumentException("must not be empty");
            }
            return raw;
        };
    }

    /** A whole number (a {@code long}) of any size. */
    public static ValueParser<Long> whole() {
        return raw -> {
            try {
                return Long.parseLong(raw);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("must be a whole number, got '" + raw + "'", e);
            }
        };
    }

    /** A whole number within [min, max]; the message states the range. */
    public static ValueParser<Integer> integer(int min, int max) {
        String rule = max == Integer.MAX_VALUE && min == 0 ? "must be a whole number >= 0"
                : max == Integer.MAX_VALUE && min == 1 ? "must be a whole number > 0"
                : "must be a whole number in " + min + ".." + max;
        return raw -> {
            try {
                long n = Long.parseLong(raw);
                if (n >= min && n <= max) {
                    return (int) n;
                }
            } catch (NumberFormatException e) {
                // the message below says what is wanted
            }
            throw new IllegalArgumentException(rule + ", got '" + raw + "'");
        };
    }

    /** {@code true} or {@code false}, any case. */
    public static ValueParser<Boolean> bool() {
        return raw -> switch (raw.toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("must be true or false, got '" + raw + "'");
        };
    }

    /** One of the given words, any case; the value is the word in lower case. */
    public static ValueParser<String> oneOf(String... allowed) {
        List<String> words = List.of(allowed);
        return raw -> {
            String v = raw.toLowerCase(Locale.ROOT);
            if (!words.contains(v)) {
                throw new IllegalArgumentException("must be one of " + Arrays.toString(allowed) + ", got '" + raw + "'");
            }
            return v;
        };
    }

    /** A duration as {@link Durations} reads it ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 7d}, ISO-8601), any sign. */
    public static ValueParser<Duration> duration() {
        return Durations::parse;
    }

    /** A duration of zero or more. */
    public static ValueParser<Duration> nonNegativeDuration() {
        return duration().check(d -> !d.isNegative(), "must not be negative");
    }

    /** A duration of more than zero. */
    public static ValueParser<Duration> positiveDuration() {
        return duration().check(d -> !d.isNegative() && !d.isZero(), "must be > 0");
    }
}
