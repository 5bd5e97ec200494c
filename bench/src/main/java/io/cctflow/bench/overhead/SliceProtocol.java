package io.cctflow.bench.overhead;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines a benchmark child ({@link OverheadWorkload}) and its parent exchange: {@code READY
 * awaitMillis=<n>} (child: working, JFR running if it waited for it), {@code END} (parent: stop and
 * report), {@code RESULT heapAfterGc=<bytes> rss=<bytes> checksum=<n>} (child: its last line).
 * Formatting and parsing live together so the two sides cannot drift apart. Stateless.
 */
final class SliceProtocol {
    /** The parent's command to stop, report and exit. */
    static final String END = "END";

    private static final Pattern READY = Pattern.compile("READY awaitMillis=(\\d+)");
    private static final Pattern RESULT = Pattern.compile("RESULT heapAfterGc=(\\d+) rss=(\\d+) checksum=(-?\\d+)");

    /** The child's last line. */
    record Result(long heapAfterGcBytes, long rssBytes, long checksum) {
    }

    private SliceProtocol() {
    }

    static String ready(long awaitMillis) {
        return "READY awaitMillis=" + awaitMillis;
    }

    static String result(long heapAfterGcBytes, long rssBytes, long checksum) {
        return "RESULT heapAfterGc=" + heapAfterGcBytes + " rss=" + rssBytes + " checksum=" + checksum;
    }

    /**
     * The JFR wait of a READY line.
     *
     * @throws IllegalArgumentException naming the line if it is not a READY line
     */
    static long parseReady(String line) {
        Matcher m = READY.matcher(line == null ? "" : line.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("expected 'READY awaitMillis=<n>' from the child, got '" + line + "'");
        }
        return Long.parseLong(m.group(1));
    }

    /**
     * The figures of a RESULT line.
     *
     * @throws IllegalArgumentException naming the line if it is not a RESULT line
     */
    static Result parseResult(String line) {
        Matcher m = RESULT.matcher(line == null ? "" : line.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "expected 'RESULT heapAfterGc=<bytes> rss=<bytes> checksum=<n>' from the child, got '" + line + "'");
        }
        return new Result(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)));
    }
}
