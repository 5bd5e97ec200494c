package io.cctflow.flink;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The job's command line: {@code --config FILE} (a properties file of job keys) and
 * {@code --key value} pairs, read left to right so that a later value of a key wins over an
 * earlier one, whether from a file or a pair. Keys are checked by {@link SamplesJobConfig#from}.
 */
final class JobArguments {
    static final String CONFIG = "--config";

    private JobArguments() {
    }

    /** The key/values the arguments give; a bad argument or unreadable file fails naming it. */
    static Map<String, String> parse(String... args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            String arg = args[i];
            if (!arg.startsWith("--") || arg.length() == 2) {
                throw new IllegalArgumentException("expected --config FILE or --key value, got '" + arg + "'");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(arg + " needs a value");
            }
            if (arg.equals(CONFIG)) {
                values.putAll(readProperties(Path.of(args[i + 1])));
            } else {
                values.put(arg.substring(2), args[i + 1]);
            }
        }
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
