package io.cctflow.servers.internal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** Reads the end of a (possibly large) log file for error messages. */
public final class LogTail {

    private static final int MAX_BYTES = 32 * 1024;

    private LogTail() {
    }

    /** The last {@code lines} lines of {@code file}, or a note saying why there are none. */
    public static String of(Path file, int lines) {
        if (!Files.exists(file)) {
            return "(" + file + " does not exist)";
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            long start = Math.max(0, length - MAX_BYTES);
            byte[] bytes = new byte[(int) (length - start)];
            in.seek(start);
            in.readFully(bytes);
            List<String> all = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\r?\n"));
            List<String> last = all.subList(Math.max(0, all.size() - lines), all.size());
            return String.join(System.lineSeparator(), last);
        } catch (IOException e) {
            return "(could not read " + file + ": " + e + ")";
        }
    }
}
