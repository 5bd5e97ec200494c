package io.cctflow.agent;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import io.cctflow.core.config.ValueParser;

/**
 * Parsers and validators for configuration values. Each throws {@link IllegalArgumentException}
 * with a message that says what is accepted. Stateless and thread-safe.
 */
public final class ConfigParsers {
    /** A number with an optional unit; a bare number means milliseconds. */
    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})\\s*(ms|s|m)?");

    /** A number with an optional binary unit; a bare number means bytes. */
    private static final Pattern SIZE = Pattern.compile("(\\d{1,12})\\s*([kKmMgG])?[bB]?");

    /**
     * One Kafka bootstrap server: an optional {@code scheme://}, a host name, IPv4 address or
     * bracketed IPv6 address, and a port.
     */
    private static final Pattern HOST_PORT = Pattern.compile(
            "(?:[A-Za-z][A-Za-z0-9_+.-]*://)?(\\[[0-9A-Fa-f:.%a-z]+\\]|[^\\s:/,\\[\\]]+):(\\d{1,5})");

    /** Separates the parts of the Kafka record key; names containing it would be ambiguous. */
    private static final char KEY_SEPARATOR = '\u001f';

    private ConfigParsers() {
    }

    /** A non-blank string that cannot break the record key (no U+001F). */
    public static ValueParser<String> name() {
        return raw -> {
            if (raw.isEmpty()) {
                throw new IllegalArgumentException("must not be empty");
            }
            if (raw.indexOf(KEY_SEPARATOR) >= 0) {
                throw new IllegalArgumentException("must not contain U+001F");
            }
            return raw;
        };
    }

    /**
     * Kafka bootstrap servers, {@code host:port[,host:port...]}. Checked here because the agent
     * creates its producer again whenever creating it failed (a name that does not resolve yet):
     * a value Kafka can never use must be reported once, at start, not retried for ever.
     */
    public static ValueParser<String> bootstrapServers() {
        return raw -> {
            for (String server : raw.split(",", -1)) {
                Matcher m = HOST_PORT.matcher(server.trim());
                if (!m.matches() || Integer.parseInt(m.group(2)) < 1 || Integer.parseInt(m.group(2)) > 65535) {
                    throw new IllegalArgumentException("'" + server.trim() + "' is not host:port (use e.g."
                            + " kafka:9092,kafka-2:9092; a port from 1 to 65535)");
                }
            }
            return raw;
        };
    }

    /** A duration in milliseconds within [min, max]: {@code 20}, {@code 20ms}, {@code 10s} or {@code 1m}. */
    public static ValueParser<Long> millis(long min, long max) {
        return raw -> {
            Matcher m = DURATION.matcher(raw);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a duration (use e.g. 20, 20ms, 10s, 1m)");
            }
            long n = Long.parseLong(m.group(1));
            String unit = m.group(2);
            long ms;
            if (unit == null || unit.equals("ms")) {
                ms = n;
            } else if (unit.equals("s")) {
                ms = Math.multiplyExact(n, 1_000L);
            } else {
                ms = Math.multiplyExact(n, 60_000L);
            }
            return checkRange(ms, min, max, " ms");
        };
    }

    /** A size in bytes within [min, max]: {@code 65536}, {@code 64k}, {@code 16m} or {@code 1g} (units of 1024). */
    static ValueParser<Long> bytes(long min, long max) {
        return raw -> {
            Matcher m = SIZE.matcher(raw);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a size (use e.g. 65536, 64k, 16m, 1g)");
            }
            long n = Long.parseLong(m.group(1));
            int shift = m.group(2) == null ? 0 : switch (Character.toLowerCase(m.group(2).charAt(0))) {
                case 'k' -> 10;
                case 'm' -> 20;
                default -> 30;
            };
            if (n > (max >> shift)) {
                throw new IllegalArgumentException("must be at most " + max + " bytes, was " + raw);
            }
            return checkRange(n << shift, min, max, " bytes");
        };
    }

    /** A file-system path; syntax is checked, existence is not. */
    static ValueParser<Path> path() {
        return raw -> {
            if (raw.isEmpty()) {
                throw new IllegalArgumentException("must not be empty");
            }
            try {
                return Path.of(raw);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("not a valid path: " + e.getReason());
            }
        };
    }

    /** A Java regular expression ({@link Pattern} syntax), not empty. */
    static ValueParser<Pattern> regex() {
        return raw -> {
            if (raw.isEmpty()) {
                throw new IllegalArgumentException("must not be empty");
            }
            try {
                return Pattern.compile(raw);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("not a regular expression: "
                        + e.getDescription() + " near index " + e.getIndex());
            }
        };
    }

    /** An integer within [min, max]. */
    public static ValueParser<Integer> integer(int min, int max) {
        return raw -> {
            long n;
            try {
                n = Long.parseLong(raw);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not an integer");
            }
            return (int) checkRange(n, min, max, "");
        };
    }

    /** {@code true} or {@code false}, any case. */
    static ValueParser<Boolean> bool() {
        return raw -> switch (raw.toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("not a boolean (use true or false)");
        };
    }

    /**
     * A comma-separated list of class-name prefixes, e.g. {@code java.,com.sun.}; blanks are
     * ignored, so an empty value means none. A prefix must not contain {@code /} (use dots).
     */
    static List<String> prefixes(String raw) {
        List<String> prefixes = new ArrayList<>();
        for (String part : raw.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            if (p.indexOf('/') >= 0) {
                throw new IllegalArgumentException("prefix '" + p + "' contains '/'; write class names with dots");
            }
            prefixes.add(p);
        }
        return List.copyOf(prefixes);
    }

    /** Labels as {@code key=value;key=value}; empty means none. Keys must be distinct. */
    public static Map<String, String> labels(String raw) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (String part : raw.split(";")) {
            String entry = part.trim();
            if (entry.isEmpty()) {
                continue;
            }
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("label '" + entry + "' is not key=value");
            }
            String key = entry.substring(0, eq).trim();
            String value = entry.substring(eq + 1).trim();
            if (key.isEmpty()) {
                throw new IllegalArgumentException("label '" + entry + "' has an empty key");
            }
            if (labels.put(key, value) != null) {
                throw new IllegalArgumentException("label key '" + key + "' given twice");
            }
        }
        return Collections.unmodifiableMap(labels);
    }

    private static long checkRange(long value, long min, long max, String unit) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    "must be between " + min + unit + " and " + max + unit + ", was " + value + unit);
        }
        return value;
    }
}
