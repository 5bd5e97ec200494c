package io.cctflow.agent.importer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Reads a collapsed-stack file ({@link CollapsedStacks}) into an {@link EventTimeBatcher}. The
 * format has no time, so every sample is put at one given instant. A line that does not parse,
 * or whose bytes are not UTF-8, is reported with its line number (and, for bad bytes, their
 * byte offset) and skipped; the other lines are imported. Blank lines and lines starting with
 * {@code #} are ignored.
 *
 * <p>Not thread-safe: one reader per thread.
 */
public final class CollapsedFileReader {
    /** At most this many bad lines of one file are reported one by one. */
    static final int MAX_REPORTED_LINES = 10;

    private final CollapsedStacks parser = new CollapsedStacks();

    /**
     * @param timeMillis the event time of all samples, epoch milliseconds
     * @param errors receives one message per bad line, at most {@value #MAX_REPORTED_LINES} per
     *     file, then one with the number of bad lines in all when there were more
     * @return the number of lines skipped in this file
     * @throws IOException when the file cannot be read
     */
    public long read(Path file, long timeMillis, EventTimeBatcher batcher, Consumer<String> errors)
            throws IOException {
        long skipped = 0;
        batcher.at(timeMillis);
        try (Utf8Lines lines = new Utf8Lines(Files.newInputStream(file))) {
            while (lines.next()) {
                String problem = record(lines, batcher);
                if (problem == null) {
                    continue;
                }
                skipped++;
                if (skipped <= MAX_REPORTED_LINES) {
                    errors.accept("file " + file + ": line " + lines.number() + " skipped: " + problem);
                }
            }
        }
        if (skipped > MAX_REPORTED_LINES) {
            errors.accept("file " + file + ": " + skipped + " lines skipped in all ("
                    + (skipped - MAX_REPORTED_LINES) + " more not listed)");
        }
        return skipped;
    }

    /** Records the current line's samples, if any; returns why it is bad, or null. */
    private String record(Utf8Lines lines, EventTimeBatcher batcher) {
        String line = lines.text();
        if (line == null) {
            return "not UTF-8 at byte offset " + lines.badOffset() + " (" + lines.badBytes() + ")";
        }
        if (line.isBlank() || line.startsWith("#")) {
            return null;
        }
        try {
            parser.parse(line);
        } catch (CollapsedStacks.FormatException e) {
            return e.getMessage();
        }
        batcher.record(parser.frames(), parser.lines(), parser.depth(), parser.thread(), false,
                parser.count());
        return null;
    }
}
