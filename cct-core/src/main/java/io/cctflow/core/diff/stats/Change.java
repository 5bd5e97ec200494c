package io.cctflow.core.diff.stats;

/**
 * The label of a change, which always agrees with the numbers: {@link #REGRESSION} only for a
 * significant rise of the share (the method takes more of side B's samples than of side A's),
 * {@link #IMPROVEMENT} only for a significant fall, {@link #UNCHANGED} otherwise.
 */
public enum Change {
    REGRESSION,
    IMPROVEMENT,
    UNCHANGED;

    static Change of(boolean significant, double delta) {
        if (!significant || delta == 0) {
            return UNCHANGED;
        }
        return delta > 0 ? REGRESSION : IMPROVEMENT;
    }
}
