package io.cctflow.agent.importer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Reads a collapsed-stack file ({@link CollapsedStacks}) into an {@link EventTimeBatcher}. The
 * format has no time, so every sample is put at one given instant. A line that does not parse is
 * reported with its line number and skipped; the other lines are imported. Blank lines and lines
 * starting with {@code #} are ignored.
 *
 * <p>Not thread-safe: one reader per thread.
 */
public final class CollapsedFileReader {
    /** At most this many bad lines of one file are reported one by one. */
    static final int MAX_REPORTED_LINES = 10;

    private final CollapsedStacks parser = new CollapsedStacks();
    private long skippedLines;

    /**
     * @param timeMillis the event time of all samples, epoch milliseconds
     * @param errors receives one message per bad line (at most {@value #MAX_REPORTED_LINES})
     * @return the number of lines skipped in this file
     * @throws IOException when the file cannot be read (including bytes that are not UTF-8)
     */
    public long read(Path file, long timeMillis, EventTimeBatcher batcher, Consumer<String> errors)
            throws IOException {
        long skippedBefore = skippedLines;
        batcher.at(timeMillis);
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(Files.newInputStream(file), decoder))) {
            long lineNumber = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lineNumber++;
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                try {
                    parser.parse(line);
                } catch (CollapsedStacks.FormatException e) {
                    skippedLines++;
                    if (skippedLines - skippedBefore <= MAX_REPORTED_LINES) {
                        errors.accept("file " + file + ": line " + lineNumber + " skipped: "
                                + e.getMessage());
                    }
                    continue;
                }
                batcher.record(parser.frames(), parser.lines(), parser.depth(), parser.thread(),
                        false, parser.count());
            }
        }
        long skipped = skippedLines - skippedBefore;
        if (skipped > MAX_REPORTED_LINES) {
            errors.accept("file " + file + ": " + skipped + " lines skipped in all ("
                    + (skipped - MAX_REPORTED_LINES) + " more not listed)");
        }
        return skipped;
    }
}
