package io.cctflow.core.diff.stats;

/**
 * The label of a change, which always agrees with the numbers: {@link #REGRESSION} only for a
 * significant rise of the share (the method takes more of side B's samples than of side A's),
 * {@link #IMPROVEMENT} only for a significant fall, {@link #UNCHANGED} otherwise; {@link
 * #WITHHELD} when a side had too few replicates to estimate the noise from, so no verdict either
 * way.
 */
public enum Change {
    REGRESSION,
    IMPROVEMENT,
    UNCHANGED,
    /** No label: a side has fewer than two replicates to estimate the noise from ({@link MethodComparison}). */
    WITHHELD;

    static Change of(boolean significant, double delta) {
        if (!significant || delta == 0) {
            return UNCHANGED;
        }
        return delta > 0 ? REGRESSION : IMPROVEMENT;
    }
}
