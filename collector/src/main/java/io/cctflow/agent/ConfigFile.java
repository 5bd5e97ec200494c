package io.cctflow.agent;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

import io.cctflow.agent.log.AgentLog;
import io.cctflow.core.config.ConfigSources;

/**
 * Reads the agent's optional properties file (the {@code config} key): {@code key=value} lines
 * in {@link java.util.Properties} syntax, UTF-8, keys as in the agent arguments. Stateless, thread-safe.
 */
final class ConfigFile {
    private ConfigFile() {
    }

    /**
     * The file's entries, in no particular order. A file that cannot be read or parsed yields
     * one warning naming it and no entries: the agent then runs on its other sources.
     */
    static Map<String, String> read(Path file, Consumer<String> warnings) {
        try {
            return ConfigSources.readProperties(file);
        } catch (IOException | RuntimeException e) {
            // RuntimeException: Properties rejects malformed \\uXXXX escapes with IllegalArgumentException
            warnings.accept("cannot read config file " + file + ": " + AgentLog.describe(e)
                    + "; ignoring it");
            return Map.of();
        }
    }
}
