package io.cctflow.servers.internal;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Properties;

/** Reading and writing small text files next to the servers' data. */
final class PropertiesFiles {

    private PropertiesFiles() {
    }

    /** The properties in {@code file}; empty if it does not exist. */
    static Properties read(Path file) {
        Properties props = new Properties();
        if (Files.exists(file)) {
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                props.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not read " + file, e);
            }
        }
        return props;
    }

    static void write(Path file, Map<String, String> values, String comment) {
        Properties props = new Properties();
        props.putAll(values);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            props.store(out, comment);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + file, e);
        }
    }

    static void append(Path file, String text) {
        try {
            Files.writeString(file, text.endsWith("\n") ? text : text + "\n", StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write " + file, e);
        }
    }
}
