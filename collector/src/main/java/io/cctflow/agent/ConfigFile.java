package io.cctflow.agent;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

import io.cctflow.agent.log.AgentLog;

/**
 * Reads the agent's optional properties file (the {@code config} key): {@code key=value} lines
 * in {@link Properties} syntax, UTF-8, keys as in the agent arguments. Stateless, thread-safe.
 */
final class ConfigFile {
    private ConfigFile() {
    }

    /**
     * The file's entries, in no particular order. A file that cannot be read or parsed yields
     * one warning naming it and no entries: the agent then runs on its other sources.
     */
    static Map<String, String> read(Path file, Consumer<String> warnings) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException | RuntimeException e) {
            // RuntimeException: Properties rejects malformed \\uXXXX escapes with IllegalArgumentException
            warnings.accept("cannot read config file " + file + ": " + AgentLog.describe(e)
                    + "; ignoring it");
            return Map.of();
        }
        Map<String, String> entries = new LinkedHashMap<>();
        for (String name : properties.stringPropertyNames()) {
            entries.put(name.trim(), properties.getProperty(name));
        }
        return entries;
    }
}
