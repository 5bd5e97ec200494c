package io.cctflow.bench;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.cctflow.core.Durations;

/** Command lines of the benchmarks: {@code --option value} pairs over a table of defaults. Stateless. */
public final class BenchArgs {
    private BenchArgs() {
    }

    /**
     * {@code defaults} with the values {@code args} gives ({@code --key value} or {@code key value});
     * every key must be one of the defaults'.
     *
     * @throws IllegalArgumentException naming the option without a value or the unknown option
     */
    public static Map<String, String> overlay(Map<String, String> defaults, String[] args) {
        Map<String, String> v = new LinkedHashMap<>(defaults);
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("options come in pairs --option value; '" + args[args.length - 1]
                    + "' has no value (--help lists them)");
        }
        for (int i = 0; i < args.length; i += 2) {
            String key = args[i].startsWith("--") ? args[i].substring(2) : args[i];
            if (!v.containsKey(key)) {
                throw new IllegalArgumentException("unknown option '" + args[i] + "' (--help lists them)");
            }
            v.put(key, args[i + 1]);
        }
        return v;
    }

    /** Option {@code key} of {@code v} as a whole number of at least 1. */
    public static int positive(Map<String, String> v, String key) {
        return atLeast(v, key, 1, "a positive integer");
    }

    /** Option {@code key} of {@code v} as a whole number of at least 0. */
    public static int nonNegative(Map<String, String> v, String key) {
        return atLeast(v, key, 0, "0 or a positive integer");
    }

    private static int atLeast(Map<String, String> v, String key, int min, String what) {
        try {
            int n = Integer.parseInt(v.get(key));
            if (n < min) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be " + what + ", was '" + v.get(key) + "'", e);
        }
    }

    /** Option {@code key} of {@code v} as a duration ({@link Durations}: {@code 500ms}, {@code 30s}, ...). */
    public static Duration duration(Map<String, String> v, String key) {
        try {
            return Durations.parse(v.get(key));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + key + ": " + e.getMessage(), e);
        }
    }
}
