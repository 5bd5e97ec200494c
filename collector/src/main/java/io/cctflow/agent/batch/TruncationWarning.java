package io.cctflow.agent.batch;

import java.util.Locale;

/**
 * Decides whether a batch has so many truncated stacks that its tree is misleading (truncated
 * stacks are rooted part-way down and become false roots), and words the warning with the exact
 * JVM flag that fixes it. Stateless and thread-safe.
 */
public final class TruncationWarning {
    /** Above this share of truncated samples in one batch, the batch carries a warning. */
    public static final double THRESHOLD = 0.01;
    /** The deepest stack JFR records ({@code -XX:FlightRecorderOptions:stackdepth} maximum). */
    public static final int MAX_STACK_DEPTH = 2048;
    /** JFR's own default depth, assumed when the depth in effect is unknown. */
    static final int JFR_DEFAULT_STACK_DEPTH = 64;

    private TruncationWarning() {
    }

    /**
     * The warning for a batch, or {@code ""} when at most {@link #THRESHOLD} of its samples are
     * truncated.
     *
     * @param samples samples in the batch
     * @param truncated how many of them JFR truncated
     * @param depth the stack depth in effect (where JFR cut them); 0 or less when unknown
     */
    public static String of(long samples, long truncated, int depth) {
        if (samples <= 0 || truncated <= samples * THRESHOLD) {
            return "";
        }
        int current = depth > 0 ? depth : JFR_DEFAULT_STACK_DEPTH;
        String share = String.format(Locale.ROOT, "%d of %d samples (%.1f %%)", truncated, samples,
                100.0 * truncated / samples);
        if (current >= MAX_STACK_DEPTH) {
            return share + " in this batch had stacks deeper than JFR's maximum stack depth of "
                    + MAX_STACK_DEPTH + " frames and were truncated; they cannot be recorded in full";
        }
        int suggested = suggestedDepth(current);
        return share + " in this batch were truncated at JFR's stack depth of " + current
                + " frames; restart the JVM with -XX:FlightRecorderOptions:stackdepth=" + suggested
                + " (and the agent key stackdepth=" + suggested + ")";
    }

    /** Twice the current depth, capped at {@link #MAX_STACK_DEPTH}. */
    static int suggestedDepth(int current) {
        return (int) Math.min(MAX_STACK_DEPTH, 2L * Math.max(1, current));
    }
}
