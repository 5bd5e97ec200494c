package io.cctflow.query;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Where the query service's keys come from, lowest precedence first: the defaults, a properties
 * file ({@code --config FILE}), environment variables ({@code CCTFLOW_} + the key upper-cased with
 * {@code .} and {@code -} as {@code _}, e.g. {@code CCTFLOW_NEO4J_URI}), {@code --key value}
 * pairs. Environment variables of unknown keys are ignored (the environment is shared); unknown
 * keys in the file or the arguments fail at validation, naming the key.
 */
final class ConfigSources {
    static final String CONFIG = "--config";
    static final String ENV_PREFIX = "CCTFLOW_";

    private ConfigSources() {
    }

    /** The environment variable that sets {@code key}. */
    static String envName(String key) {
        return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The values of {@code args} over {@code env} over the file named by {@code --config}. */
    static Map<String, String> read(String[] args, Map<String, String> env, Collection<String> knownKeys) {
        Map<String, String> file = new LinkedHashMap<>();
        Map<String, String> pairs = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new IllegalArgumentException("expected --config FILE or --key value, got '" + arg + "'");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(arg + " needs a value");
            }
            if (arg.equals(CONFIG)) {
                file.putAll(readProperties(Path.of(args[i + 1])));
            } else {
                pairs.put(arg.substring(2), args[i + 1]);
            }
        }
        Map<String, String> values = new LinkedHashMap<>(file);
        for (String key : knownKeys) {
            String v = env.get(envName(key));
            if (v != null) {
                values.put(key, v);
            }
        }
        values.putAll(pairs);
        return values;
    }

    private static Map<String, String> readProperties(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException e) {
            throw new IllegalArgumentException(CONFIG + " " + file + ": cannot read it (" + e.getMessage() + ")", e);
        }
        Map<String, String> values = new LinkedHashMap<>();
        p.stringPropertyNames().stream().sorted().forEach(k -> values.put(k, p.getProperty(k)));
        return values;
    }
}
