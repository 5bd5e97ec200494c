package io.cctflow.servers.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * JVM options that make a child JVM's SLF4J logging land on its standard output.
 *
 * <p>The child inherits our class path, and Neo4j puts its own SLF4J provider on it
 * ({@code neo4j-slf4j-provider}); outside a running Neo4j that provider is a silent no-op, and
 * SLF4J picks it when it comes first. So name a real provider explicitly with
 * {@code -Dslf4j.provider}: slf4j-simple if present, else Log4j 2's SLF4J binding (Log4j core
 * itself always comes with Neo4j) with a console configuration written next to the data.
 */
public final class ChildLogging {

    static final String SIMPLE_PROVIDER = "org.slf4j.simple.SimpleServiceProvider";
    static final String LOG4J2_PROVIDER = "org.apache.logging.slf4j.SLF4JServiceProvider";
    private static final String CONFIG_LOGGER = "org.apache.kafka.common.config.AbstractConfig";

    private static final String LOG4J2_CONFIG = String.join("\n",
            "status = warn",
            "appender.out.type = Console",
            "appender.out.name = OUT",
            "appender.out.layout.type = PatternLayout",
            "appender.out.layout.pattern = %d{yyyy-MM-dd'T'HH:mm:ss.SSS} %-5p [%t] %c - %m%n",
            "rootLogger.level = INFO",
            "rootLogger.appenderRef.out.ref = OUT",
            "logger.config.name = " + CONFIG_LOGGER,
            "logger.config.level = WARN",
            "");

    private ChildLogging() {
    }

    /** Options for a child whose working files live in {@code dataDir}; may be empty. */
    public static List<String> jvmOptions(Path dataDir) {
        if (isPresent(SIMPLE_PROVIDER)) {
            return List.of(
                    "-Dslf4j.provider=" + SIMPLE_PROVIDER,
                    "-Dorg.slf4j.simpleLogger.logFile=System.out",
                    "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
                    "-Dorg.slf4j.simpleLogger.showDateTime=true",
                    "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSS",
                    // the full broker config, five times per start, is most of the log otherwise
                    "-Dorg.slf4j.simpleLogger.log." + CONFIG_LOGGER + "=warn");
        }
        if (isPresent(LOG4J2_PROVIDER)) {
            Path config = dataDir.resolve("log4j2-child.properties");
            try {
                Files.writeString(config, LOG4J2_CONFIG, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not write " + config, e);
            }
            return List.of(
                    "-Dslf4j.provider=" + LOG4J2_PROVIDER,
                    "-Dlog4j2.configurationFile=" + config);
        }
        return List.of();
    }

    private static boolean isPresent(String className) {
        try {
            Class.forName(className, false, ChildLogging.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
