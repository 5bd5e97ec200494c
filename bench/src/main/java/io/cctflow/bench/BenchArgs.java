package io.cctflow.bench;

import java.util.LinkedHashMap;
import java.util.Map;

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
}
