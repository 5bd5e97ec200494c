package io.cctflow.bench;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The properties file a benchmark writes beside the store it built, so that a later phase knows
 * what it holds: written once the build is complete, read back with an error that says what to
 * run when it is missing or incomplete. Immutable once read.
 */
public final class DatasetFile {
    private final Path file;
    private final Properties properties;

    private DatasetFile(Path file, Properties properties) {
        this.file = file;
        this.properties = properties;
    }

    /** Writes {@code properties} to {@code file} (UTF-8), {@code writer} named in its header. */
    public static void write(Path file, Properties properties, String writer) {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            properties.store(w, "written by " + writer);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * @param whenMissing what to run to make the file, for the error when it is missing
     * @throws IllegalArgumentException if the file is missing
     */
    public static DatasetFile read(Path file, String whenMissing) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(file.getParent() + " holds no dataset (" + file.getFileName()
                    + " is missing): " + whenMissing);
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        return new DatasetFile(file, p);
    }

    /** @throws IllegalArgumentException if the key is missing (a build that did not finish) */
    public String get(String key) {
        String v = properties.getProperty(key);
        if (v == null) {
            throw new IllegalArgumentException(file + " lacks '" + key + "': the run that wrote it did not finish"
                    + " or is older; run it again");
        }
        return v;
    }

    public int getInt(String key) {
        return Integer.parseInt(get(key));
    }

    public long getLong(String key) {
        return Long.parseLong(get(key));
    }

    public double getDouble(String key) {
        return Double.parseDouble(get(key));
    }
}
