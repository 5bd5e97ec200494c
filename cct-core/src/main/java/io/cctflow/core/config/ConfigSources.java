package io.cctflow.core.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * Gathers the raw values of one {@link ConfigDef} from the places an operator sets them, into the
 * one key map {@link ConfigDef#parse} reads. Precedence, highest first:
 * <ol>
 *   <li>explicit values (the command line: {@code --key value});</li>
 *   <li>environment variables, {@link ConfigKey#environmentVariable()}: {@code CCTFLOW_} + the key
 *       upper-cased with {@code .} and {@code -} as {@code _} ({@code neo4j.uri} is
 *       {@code CCTFLOW_NEO4J_URI});</li>
 *   <li>a properties file ({@code --config FILE}): {@code key=value} lines, UTF-8;</li>
 *   <li>the key's default.</li>
 * </ol>
 * Only variables of defined keys are read, so other {@code CCTFLOW_*} variables do no harm; a
 * file's or the command line's unknown keys reach {@link ConfigDef#parse}, which rejects them.
 * Stateless and thread-safe.
 */
public final class ConfigSources {
    /** The command-line option that names the properties file: {@code --config FILE}. */
    public static final String CONFIG_OPTION = "config";

    private ConfigSources() {
    }

    /**
     * The merged raw values: {@code file} under the environment under {@code explicit}.
     *
     * @param file entries of a properties file ({@link #readFile}), or an empty map
     * @param environment looks up an environment variable ({@code System::getenv}), null when unset
     * @param explicit values given on the command line
     */
    public static Map<String, String> merge(ConfigDef def, Map<String, String> file,
            Function<String, String> environment, Map<String, String> explicit) {
        Map<String, String> values = new LinkedHashMap<>(file);
        def.environmentVariables().forEach((key, variable) -> {
            String value = environment.apply(variable);
            if (value != null) {
                values.put(key, value);
            }
        });
        values.putAll(explicit);
        return values;
    }

    /**
     * Reads a properties file: {@link Properties} syntax, UTF-8, keys trimmed.
     *
     * @throws ConfigException naming the file when it cannot be read or parsed
     */
    public static Map<String, String> readFile(Path file) {
        try {
            return readProperties(file);
        } catch (IOException | IllegalArgumentException e) {
            throw ConfigException.badValue("config", new IllegalArgumentException(
                    "cannot read config file " + file + ": " + e, e));
        }
    }

    /**
     * As {@link #readFile}, for callers that handle the failure themselves (the agent warns and
     * goes on).
     *
     * @throws IllegalArgumentException for a malformed {@code \\uXXXX} escape
     */
    public static Map<String, String> readProperties(Path file) throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        }
        Map<String, String> entries = new LinkedHashMap<>();
        for (String name : properties.stringPropertyNames()) {
            entries.put(name.trim(), properties.getProperty(name));
        }
        return entries;
    }

    /**
     * Everything a service's {@code main} needs: {@code --key value} arguments, where
     * {@code --config FILE} names a properties file, merged with the file and the environment in
     * the precedence above. Parse the result with {@link ConfigDef#parse}.
     *
     * @param environment {@code System::getenv}, or a map's {@code get} in tests
     * @throws ConfigException for malformed arguments or a file that cannot be read
     */
    public static Map<String, String> fromCommandLine(ConfigDef def, String[] args,
            Function<String, String> environment) {
        Map<String, String> explicit = parseArguments(args);
        String file = explicit.remove(CONFIG_OPTION);
        Map<String, String> fromFile = file == null ? Map.of() : readFile(Path.of(file));
        return merge(def, fromFile, environment, explicit);
    }

    /**
     * Splits {@code --key value} and {@code --key=value} pairs, as the job's and the query
     * service's {@code main} take them.
     *
     * @throws ConfigException for an argument that is not {@code --key} or a key without a value
     */
    public static Map<String, String> parseArguments(String... args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw ConfigException.badValue(arg, new IllegalArgumentException(
                        "expected --key value, got '" + arg + "'"));
            }
            int eq = arg.indexOf('=');
            if (eq > 0) {
                values.put(arg.substring(2, eq), arg.substring(eq + 1));
            } else if (i + 1 < args.length) {
                values.put(arg.substring(2), args[++i]);
            } else {
                throw ConfigException.badValue(arg.substring(2), new IllegalArgumentException(
                        "must have a value, got none after '" + arg + "'"));
            }
        }
        return values;
    }
}
