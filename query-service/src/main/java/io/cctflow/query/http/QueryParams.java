package io.cctflow.query.http;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The query string of a request, with typed getters whose errors name the parameter. */
public final class QueryParams {
    private final Map<String, List<String>> values = new LinkedHashMap<>();

    public QueryParams(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            values.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        }
    }

    /**
     * Parameters already decoded, e.g. one side of a comparison picked out of a request; the lists
     * are copied.
     */
    public static QueryParams of(Map<String, List<String>> decoded) {
        QueryParams p = new QueryParams(null);
        decoded.forEach((k, v) -> p.values.put(k, new ArrayList<>(v)));
        return p;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("malformed percent-encoding in query string: '" + s + "'");
        }
    }

    /**
     * The parameters decoded, names sorted, each name's values in the order given: two query
     * strings that differ only in the order of their names or in their encoding give the same text,
     * and two that differ otherwise different texts (each name and value is preceded by its length).
     */
    public String canonical() {
        StringBuilder out = new StringBuilder();
        new java.util.TreeMap<>(values).forEach((k, v) -> {
            for (String value : v) {
                out.append(k.length()).append(':').append(k).append(value.length()).append(':').append(value);
            }
        });
        return out.toString();
    }

    /** Rejects parameters the endpoint does not know, which are usually typos. */
    public void allowOnly(Set<String> known) {
        for (String key : values.keySet()) {
            if (!known.contains(key)) {
                throw ApiException.badRequest("unknown parameter '" + key + "'; this endpoint takes " + known);
            }
        }
    }

    public String required(String name) {
        return optional(name).orElseThrow(() -> ApiException.badRequest("missing required parameter '" + name + "'"));
    }

    public Optional<String> optional(String name) {
        List<String> v = values.get(name);
        if (v == null) {
            return Optional.empty();
        }
        if (v.size() > 1) {
            throw ApiException.badRequest("parameter '" + name + "' given " + v.size() + " times; give it once");
        }
        if (v.get(0).isBlank()) {
            throw ApiException.badRequest("parameter '" + name + "' is empty");
        }
        return Optional.of(v.get(0).trim());
    }

    /** All values of a repeatable parameter. */
    public List<String> all(String name) {
        List<String> v = values.getOrDefault(name, List.of());
        for (String s : v) {
            if (s.isBlank()) {
                throw ApiException.badRequest("parameter '" + name + "' is empty");
            }
        }
        return v;
    }

    /** Values of a repeatable {@code key=value} parameter, e.g. {@code label=zone=a}. */
    public Map<String, String> pairs(String name) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String s : all(name)) {
            int eq = s.indexOf('=');
            if (eq <= 0 || eq == s.length() - 1) {
                throw ApiException.badRequest("parameter '" + name + "' must be key=value, e.g. " + name
                        + "=zone=eu-1; got '" + s + "'");
            }
            out.put(s.substring(0, eq).trim(), s.substring(eq + 1).trim());
        }
        return out;
    }

    /** A number in [min, max]. */
    public Optional<Double> number(String name, double min, double max) {
        return optional(name).map(s -> {
            try {
                double d = Double.parseDouble(s);
                if (d >= min && d <= max) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // the message below says what is wanted
            }
            throw ApiException.badRequest("parameter '" + name + "' must be a number in [" + min + ", " + max
                    + "], got '" + s + "'");
        });
    }

    /** A whole number in [min, max]. */
    public Optional<Integer> integer(String name, int min, int max) {
        return optional(name).map(s -> {
            try {
                int n = Integer.parseInt(s);
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // the message below says what is wanted
            }
            throw ApiException.badRequest("parameter '" + name + "' must be a whole number in [" + min + ", " + max
                    + "], got '" + s + "'");
        });
    }

    /** One of the allowed words (case-sensitive). */
    public Optional<String> oneOf(String name, String... allowed) {
        return optional(name).map(s -> {
            if (!java.util.Arrays.asList(allowed).contains(s)) {
                throw ApiException.badRequest("parameter '" + name + "' must be one of "
                        + java.util.Arrays.toString(allowed) + ", got '" + s + "'");
            }
            return s;
        });
    }

    /** Earliest and latest instants a request may name: beyond them epoch milliseconds overflow. */
    static final Instant EARLIEST = Instant.EPOCH;
    static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

    /** An ISO-8601 instant between {@link #EARLIEST} and {@link #LATEST}. */
    public Optional<Instant> instant(String name) {
        return optional(name).map(s -> {
            Instant t;
            try {
                t = Instant.parse(s);
            } catch (DateTimeParseException e) {
                throw ApiException.badRequest("parameter '" + name + "' must be an ISO-8601 instant such as "
                        + "2026-11-21T10:15:30Z, got '" + s + "'");
            }
            if (t.isBefore(EARLIEST) || t.isAfter(LATEST)) {
                throw ApiException.badRequest("parameter '" + name + "' must lie between " + EARLIEST + " and "
                        + LATEST + ", got '" + s + "'");
            }
            return t;
        });
    }
}
