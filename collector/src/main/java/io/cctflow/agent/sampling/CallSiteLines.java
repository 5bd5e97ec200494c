package io.cctflow.agent.sampling;

/**
 * Turns the lines frames were executing into call-site lines. A CCT node is a (method,
 * call-site line) pair, and the call site of a frame is where its <em>parent</em> was when it
 * made the call: so frame i (root first) gets the line frame i-1 was executing, and the root
 * gets 0. Stateless and thread-safe.
 */
public final class CallSiteLines {
    private CallSiteLines() {
    }

    /**
     * Shifts, in place, the first {@code depth} executing lines (root first) into call-site
     * lines. Negative lines (JFR's "unknown") become 0.
     */
    public static void fromExecutingLines(int[] lines, int depth) {
        for (int i = depth - 1; i > 0; i--) {
            lines[i] = Math.max(0, lines[i - 1]);
        }
        if (depth > 0) {
            lines[0] = 0;
        }
    }
}
